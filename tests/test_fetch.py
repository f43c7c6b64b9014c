"""The download path against a local HTTP server on 127.0.0.1 serving the mirror."""
import functools
import http.server
import threading

import pytest

from stratbench.datasets import FetchError, fetch
from stratbench.datasets.registry import RemoteFile, entry
from stratbench.datasets.fetch import sha256_of


@pytest.fixture
def server(mirror):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(mirror))
    handler.log_message = lambda *a, **k: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.mark.mirror
def test_good_file_over_http(server, tmp_path):
    remote = entry("emotions").label_file
    dest = fetch(remote, tmp_path / "emotions.xml", server, retries=0)
    assert sha256_of(dest) == remote.sha256
    assert [p.name for p in tmp_path.iterdir()] == ["emotions.xml"]


@pytest.mark.mirror
def test_wrong_checksum_leaves_no_file(server, tmp_path):
    good = entry("emotions").label_file
    bad = RemoteFile(good.path, "0" * 64, good.bytes)
    with pytest.raises(FetchError, match=r"emotions\.xml.*sha256 mismatch.*expected 0{64}, got " + good.sha256):
        fetch(bad, tmp_path / "emotions.xml", server, retries=0)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.mirror
def test_http_error_leaves_no_file(server, tmp_path):
    missing = RemoteFile("emotions/not-there.arff", "0" * 64, 1)
    with pytest.raises(FetchError, match=r"cannot download http://127\.0\.0\.1:\d+/emotions/not-there\.arff: HTTP Error 404"):
        fetch(missing, tmp_path / "x.arff", server, retries=2, backoff=0)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.mirror
def test_local_folder_mirror_and_missing_file(mirror, tmp_path):
    remote = entry("scene").data_files[0]
    assert sha256_of(fetch(remote, tmp_path / "scene-train.arff", str(mirror))) == remote.sha256
    with pytest.raises(FetchError, match="not found in the mirror"):
        fetch(RemoteFile("nowhere/x.arff", "0" * 64, 1), tmp_path / "x.arff", str(mirror))
    assert [p.name for p in tmp_path.iterdir()] == ["scene-train.arff"]


def test_unpinned_file_is_refused_with_its_checksum(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "f.arff").write_text("hello")
    with pytest.raises(FetchError, match=r"no sha256 is pinned .* its sha256 is 2cf24dba"):
        fetch(RemoteFile("m/f.arff", None, None), tmp_path / "out" / "f.arff", str(tmp_path))
    assert not (tmp_path / "out" / "f.arff").exists()


def test_registry_lists_every_mirror_dataset():
    for name in ["emotions", "scene", "yeast", "genbase", "medical", "enron", "bibtex", "corel5k",
                 "delicious", "tmc2007-500", "cal500", "birds", "flags", "foodtruck", "mediamill", "rcv1subset1"]:
        e = entry(name)
        assert e.labels > 0 and e.data_files
    assert [f.name for f in entry("scene").data_files] == ["scene-train.arff", "scene-test.arff"]
