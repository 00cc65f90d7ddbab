"""The API's HTTP conventions, global to every endpoint under ``/api/``.

Each module does one job and works for endpoints it has never seen:
``problems`` (the ``api.*`` catalogue), ``errors`` (RFC 9457 problem details,
DRF's exception handler), ``language`` (Accept-Language / ``?lang=``),
``tokens`` and ``auth`` (API tokens), ``throttling``, ``pagination``,
``idempotency`` (``Idempotency-Key``) and ``etags`` (``ETag``, ``If-Match``,
``If-None-Match``). Settings wire them in (``REST_FRAMEWORK``, ``MIDDLEWARE``).
"""
