"""The download path against a local HTTP server on 127.0.0.1 serving the mirror."""
import functools
import http.server
import threading

import pytest

from stratbench.datasets import FetchError, fetch
from stratbench.datasets.fetch import sha256_of
from stratbench.datasets.registry import RemoteFile, entry


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
    with pytest.raises(FetchError, match="no such file in the mirror"):
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


class _CutOff(http.server.BaseHTTPRequestHandler):
    """Announces 1,000 bytes and closes the connection after 300."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"x" * 300)
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


def test_an_interrupted_download_says_so_with_byte_counts_and_leaves_nothing(tmp_path):
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _CutOff)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}"
        with pytest.raises(FetchError, match=r"incomplete download: 300 of 1,000 bytes \(after 2 attempts\)") as info:
            fetch(RemoteFile("d/x.arff", "0" * 64, 1000), tmp_path / "x.arff", url, retries=1, backoff=0)
        assert "sha256" not in str(info.value)
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert list(tmp_path.iterdir()) == []


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write(tmp_path):
    from stratbench.io import write_text

    (tmp_path / ".x.arff.abc123.tmp").write_bytes(b"")  # what SIGKILL during a download leaves
    (tmp_path / ".other.arff.abc.tmp").write_bytes(b"")  # another file's: kept
    write_text(tmp_path / "x.arff", "data")
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.arff.abc.tmp", "x.arff"]


@pytest.mark.mirror
def test_a_fetched_file_changed_later_is_never_parsed(mirror, tmp_path):
    """emotions.arff cut to its first 200,000 bytes after the fetch (it once parsed as 318 rows, exit 0)."""
    from stratbench.datasets.mulan import fetch_mulan, parse_mulan

    files = fetch_mulan("emotions", tmp_path, str(mirror))
    files[0].write_bytes(files[0].read_bytes()[:200_000])
    with pytest.raises(FetchError, match=r"emotions\.arff: does not match its pinned sha256 \(200,000 of 380,476 bytes\)"):
        parse_mulan("emotions", files)


@pytest.mark.mirror
def test_the_dataset_cache_is_keyed_by_the_pinned_hashes(mirror, tmp_path):
    from stratbench.datasets.mulan import content_key, load_mulan

    load_mulan("emotions", cache_dir=tmp_path, mirror=str(mirror))
    assert [p.name for p in (tmp_path / "datasets").iterdir()] == [f"emotions-{content_key('emotions')}.npz"]
    assert len(content_key("emotions")) == 12 and content_key("emotions") != content_key("scene")
