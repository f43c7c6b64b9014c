"""Fetch a pinned file from a mirror (local folder or base URL) or upstream, sha256-checked.

The bytes go to a temporary file beside the target; only a file whose sha256 matches the pinned
one is renamed into place, so a failed or corrupt download never leaves a file behind.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path

from stratbench import StratbenchError
from stratbench.datasets.registry import RemoteFile, upstream_base_url
from stratbench.io import atomic_path

MIRROR_ENV = "STRATBENCH_DATA_MIRROR"
_CHUNK = 1 << 20


def mirror_hint() -> str:
    """What a user can do when the files cannot be downloaded: the mirror settings and where the files are."""
    return (f"to read the files from a local copy instead, set {MIRROR_ENV}=<folder> or data.mirror: <folder> in the "
            f"study's config (laid out as <folder>/<dataset>/<file>); `stratbench mirror <folder>` makes one on a "
            f"machine that can download, from {upstream_base_url()}")


class FetchError(StratbenchError):
    """A download failed or a checksum did not match."""


def sha256_of(path: str | os.PathLike) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def resolve_mirror(configured: str | None = None) -> str | None:
    """The mirror to use: the config's value if set, else ``$STRATBENCH_DATA_MIRROR``, else None."""
    mirror = configured or os.environ.get(MIRROR_ENV) or None
    return mirror


def _setting(mirror: str) -> str:
    """Which setting named ``mirror``: the environment variable or the config's ``data.mirror``."""
    return f"${MIRROR_ENV}" if os.environ.get(MIRROR_ENV) == mirror else "data.mirror"


def check_mirror(configured: str | None = None) -> None:
    """A local mirror that is set must be a folder: said before anything is fetched (a plan, ``stratbench
    check``), not when the first job reads it."""
    mirror = resolve_mirror(configured)
    if mirror is not None and not _is_url(mirror) and not Path(mirror).is_dir():
        raise FetchError(f"the MULAN mirror {mirror} (from {_setting(mirror)}) is not a folder; point it at a folder "
                         f"laid out as <folder>/<dataset>/<file>, or unset it to download from {upstream_base_url()}")


def _is_url(location: str) -> bool:
    return location.split("://", 1)[0] in {"http", "https", "file"} and "://" in location


def source_of(remote: RemoteFile, mirror: str | None) -> str:
    """Where ``remote`` is read from: ``<mirror>/<path>`` or the pinned upstream URL."""
    if mirror is None:
        return upstream_base_url() + remote.path
    if _is_url(mirror):
        return mirror.rstrip("/") + "/" + remote.path
    return str(Path(mirror) / remote.path)


class IncompleteDownload(OSError):
    """The connection ended before the announced (or pinned) number of bytes arrived."""


def _download(url: str, dest: Path, timeout: float, retries: int, backoff: float, expected: int | None) -> None:
    last: Exception | None = None
    for attempt in range(retries + 1):
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp, open(dest, "wb") as out:
                announced = resp.headers.get("Content-Length")
                want = int(announced) if announced and announced.isdigit() else expected
                got = 0
                for block in iter(lambda: resp.read(_CHUNK), b""):
                    out.write(block)
                    got += len(block)
            if want is not None and got < want:
                raise IncompleteDownload(f"incomplete download: {got:,} of {want:,} bytes")
            return
        except urllib.error.HTTPError as exc:
            last = exc
            if exc.code < 500 and exc.code != 429:
                break  # a client error will not go away by retrying
        except (urllib.error.URLError, TimeoutError, ConnectionError, OSError) as exc:
            last = exc
        if attempt < retries:
            time.sleep(backoff * 2**attempt)
    if isinstance(last, IncompleteDownload):
        raise FetchError(f"{url}: {last} (after {retries + 1} attempts); nothing was kept; {mirror_hint()}")
    raise FetchError(f"cannot download {url}: {last}; {mirror_hint()}")


def fetch(
    remote: RemoteFile,
    dest: str | os.PathLike,
    mirror: str | None = None,
    *,
    timeout: float = 60.0,
    retries: int = 3,
    backoff: float = 1.0,
) -> Path:
    """Put ``remote`` at ``dest`` (from ``mirror`` or upstream) after checking its sha256."""
    dest = Path(dest)
    source = source_of(remote, mirror)
    with atomic_path(dest) as tmp:
        if _is_url(source):
            _download(source, tmp, timeout, retries, backoff, remote.bytes)
        else:
            if not Path(source).is_file():
                where = "the mirror folder does not exist" if not Path(mirror).is_dir() else "no such file in the mirror"
                raise FetchError(f"{source}: {where} ({mirror}, from {_setting(mirror)}); point it at a folder laid "
                                 f"out as <folder>/<dataset>/<file>, or unset it to download from {upstream_base_url()}")
            shutil.copyfile(source, tmp)
        size = tmp.stat().st_size
        if remote.bytes is not None and size < remote.bytes:
            raise FetchError(f"{source}: incomplete download: {size:,} of {remote.bytes:,} bytes; nothing was kept")
        digest = sha256_of(tmp)
        if remote.sha256 is None:
            raise FetchError(
                f"{source}: no sha256 is pinned for {remote.path} in the registry; "
                f"its sha256 is {digest} — check it and add it to stratbench/data/datasets.yaml"
            )
        if digest != remote.sha256:
            raise FetchError(
                f"{source}: sha256 mismatch for {remote.path}: expected {remote.sha256}, got {digest}"
            )
    return dest


def verify(remote: RemoteFile, path: str | os.PathLike) -> None:
    """Check a fetched file against its pinned sha256 before it is read: a file changed or cut short
    after it was fetched stops with a message instead of being parsed."""
    if remote.sha256 is None:
        return
    digest = sha256_of(path)
    if digest != remote.sha256:
        size = Path(path).stat().st_size
        pinned = f" ({size:,} of {remote.bytes:,} bytes)" if remote.bytes and size != remote.bytes else ""
        raise FetchError(f"{path}: does not match its pinned sha256{pinned}: expected {remote.sha256}, got "
                         f"{digest}; it changed after it was fetched — delete it to fetch it again")
