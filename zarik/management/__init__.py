"""Commands that wire the apps together (``load_demo``)."""
