"""One Inspect task per category: parameters and wiring only."""
