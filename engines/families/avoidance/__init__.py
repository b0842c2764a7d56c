"""The avoidance games (chasse-cœur, pétasse): tricks where points are to be avoided."""
