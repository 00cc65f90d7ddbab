"""What wires every app together outside a request: the demo data (``demo``) and ``manage.py load_demo``."""
