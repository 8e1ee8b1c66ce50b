"""AES-128-CTR of encrypted ESP-DL models (mode 1), with the `cryptography` package.

esp-dl's loader (fbs_loader.cpp, fbs_aes_crypt_ctr) decrypts the whole FlatBuffer with
mbedtls_aes_crypt_ctr (or PSA_ALG_CTR on ESP-IDF 6): the initial counter block is the 16 bytes
0x10, 0x11, ..., 0x1F, incremented as one big-endian 128-bit number per 16-byte block, which is
what `cryptography`'s `modes.CTR` does. Encrypting is the same operation.
"""

from __future__ import annotations

from typing import Any

from ....core import budget
from ....core.deps import dependency
from ....core.errors import FormatError
from ..plugin import key_bytes

NONCE = bytes(range(0x10, 0x20))
KEY_SIZE = 16


def parse_key(text: str) -> bytes:
    """A key given as 32 hex digits."""
    key = key_bytes(text)
    if key is None:
        # the text is never echoed (it may be a secret, or part of one): its length only
        raise FormatError("an ESP-DL model key is 16 bytes", expected="32 hex digits",
                          found=f"{len(text)} characters that are not 32 hex digits")
    return key


def decrypt(data: Any, key: bytes, *, file: str | None = None) -> bytes:
    """The AES-128-CTR transform of `data` (decrypts and encrypts alike); a new buffer, asked of the
    budget first (each model of a pack is decrypted into its own copy, and records may overlap)."""
    if len(key) != KEY_SIZE:
        raise FormatError("an ESP-DL model key is 16 bytes", file=file, expected=KEY_SIZE, found=len(key))
    budget.ask(2 * len(data), f"decrypting a model ({len(data):,} bytes: the copy and the cipher's)", file=file)
    ciphers = dependency("cryptography.hazmat.primitives.ciphers", "cryptography",
                         purpose="decrypting an ESP-DL model", file=file)
    ctx = ciphers.Cipher(ciphers.algorithms.AES(key), ciphers.modes.CTR(NONCE)).decryptor()
    out: bytes = ctx.update(bytes(data)) + ctx.finalize()
    return out


__all__ = ["NONCE", "decrypt", "parse_key"]
