"""Private links, QR codes and check-in: an entry's own pages under ``/p/<token>/``, the organiser's links page, the desk's bulk check-in, the ``/me/`` landing."""
