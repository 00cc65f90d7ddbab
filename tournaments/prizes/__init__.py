"""Entry fees taken at the desk and the prize table (book Part 9: fees form the prize fund)."""
