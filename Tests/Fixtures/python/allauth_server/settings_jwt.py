"""settings.py with allauth's JWT token strategy, as its docs ("JWT Tokens") set it up: HEADLESS_TOKEN_STRATEGY and
an RSA private key in HEADLESS_JWT_PRIVATE_KEY, the other HEADLESS_JWT_ settings left at their defaults (RS256,
access tokens for 300 s, refresh tokens for 86400 s and rotated, `Authorization: Bearer`, no stateful validation).
The login's `meta` then has `access_token` and `refresh_token` next to `session_token`;
POST _allauth/app/v1/tokens/refresh takes {"refresh_token": ...}.

The key is made at start-up (as `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048` would) into
jwt_private_key.pem next to the database: in the tests' temporary HOME.
"""

import os

from cryptography.hazmat.primitives.asymmetric import rsa

# django-allauth 65.21.1 loads cryptography through a lazy proxy (allauth/core/internal/deferred.py). During a
# login, the JWT code first imports cryptography.hazmat.primitives (through .ciphers); the proxy then reads
# cryptography.hazmat.primitives.serialization as an attribute of that package, which is not there until the
# submodule is imported, so every login and every Bearer check answers 500 (AttributeError in
# allauth/core/internal/jwkkit.py, load_pem). Importing the submodule here makes the attribute exist.
import cryptography.hazmat.primitives.serialization

from allauth_server.settings import *  # noqa: F403

serialization = cryptography.hazmat.primitives.serialization

HEADLESS_TOKEN_STRATEGY = "allauth.headless.tokens.strategies.jwt.JWTTokenStrategy"

_key_file = os.path.join(os.path.dirname(DATABASES["default"]["NAME"]), "jwt_private_key.pem")  # noqa: F405
if not os.path.exists(_key_file):
    _key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    _pem = _key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    with open(os.open(_key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb") as _file:
        _file.write(_pem)
with open(_key_file) as _file:
    HEADLESS_JWT_PRIVATE_KEY = _file.read()
