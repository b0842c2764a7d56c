"""Games of one's own (docs/add-a-game.md): a package, one module or subpackage per game."""
