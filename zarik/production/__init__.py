"""What a production deployment checks about itself: the system checks every command and the web
server run at start (``checks``), and ``/healthz`` for the load balancer (``health``)."""
