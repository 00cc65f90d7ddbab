import hashlib
import hmac
import time


def verify(secret: str, headers, body: bytes, tolerance: int = 300) -> bool:
    timestamp = headers["Zarik-Timestamp"]
    expected = "sha256=" + hmac.new(
        secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    fresh = abs(time.time() - int(timestamp)) <= tolerance
    return fresh and hmac.compare_digest(expected, headers["Zarik-Signature"])
