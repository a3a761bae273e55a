// The player: filled in by the reading work.
