"""The job server (stratbench.jobs.server): a job it forks runs as it would in a fresh Python, with its status, streams,
folder, environment and thread pools; a job it cannot run runs in its own process; nothing outlives its job."""
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import pytest

from stratbench.jobs import server as jobserver

JOB = """\
import os, sys
from stratbench.jobs.server import delegate
{before}
delegate()
import tempfile
print("ran", os.getpid(), os.getppid(), os.getcwd(), os.environ.get("COLOUR"), tempfile.gettempdir(), sys.argv[1:])
print("to stderr", file=sys.stderr)
{after}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    log = tmp_path_factory.mktemp("server") / "jobserver.log"
    running = jobserver.start(log, preload=("numpy",))
    assert running is not None
    address = os.environ.pop(jobserver.ENV)  # each test hands it to its jobs
    deadline = time.monotonic() + 60
    while not running.ready():
        assert running.process.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.05)
    yield running, address, log
    assert running.stop() is None and not Path(address).parent.exists()  # it was running until stopped


def run_job(tmp_path, address, before="", after="", env=None, args=(), environment=None, **popen):
    script = tmp_path / "job.py"
    script.write_text(JOB.format(before=before, after=after))
    environment = {**(os.environ if environment is None else environment), jobserver.ENV: address, "COLOUR": "teal",
                   **(env or {})}
    return subprocess.run([sys.executable, str(script), *args], cwd=tmp_path, env=environment, capture_output=True,
                          text=True, timeout=60, **popen)


def test_a_forked_job_runs_in_its_own_folder_environment_and_streams_and_leaves_with_its_status(server, tmp_path):
    running, address, log = server
    (tmp_path / "scratch").mkdir()
    done = run_job(tmp_path, address, after="sys.exit(3)", env={"TMPDIR": str(tmp_path / "scratch")}, args=("a", "b"))
    ran = done.stdout.split()
    assert done.returncode == 3 and ran[0] == "ran" and int(ran[2]) == running.process.pid  # a child of the server
    assert ran[3:] == [str(tmp_path), "teal", str(tmp_path / "scratch"), "['a',", "'b']"]
    assert done.stderr == "to stderr\n"
    assert f"child {ran[1]} (job.py) ended with status 3" in log.read_text()


def test_a_forked_job_runs_its_exit_handlers_as_a_fresh_python_does(server, tmp_path):
    """The job's atexit handlers (a job's usage line is one) run before the child leaves: CPython's private
    ``atexit._run_exitfuncs`` (docs/contributing.md lists the use; this test fails where CPython drops it)."""
    after = "import atexit; atexit.register(print, 'handled', flush=True); sys.exit(2)"
    done = run_job(tmp_path, server[1], after=after)
    assert done.returncode == 2 and done.stdout.split()[-1] == "handled", (done.stdout, done.stderr)


def test_a_forked_jobs_error_reaches_its_stream_and_fails_it(server, tmp_path):
    done = run_job(tmp_path, server[1], after="raise KeyError('no such label')")
    assert done.returncode == 1 and done.stderr.splitlines()[-1] == "KeyError: 'no such label'"
    assert run_job(tmp_path, server[1], after="os._exit(0)").returncode == 0


def test_a_forked_job_sizes_its_thread_pools_from_its_environment(server, tmp_path):
    after = ("import threadpoolctl; print(sorted({i['num_threads'] for i in threadpoolctl.threadpool_info() "
             "if i['user_api'] == 'blas'}))")
    cores = len(os.sched_getaffinity(0))
    for env, threads in (({"OMP_NUM_THREADS": "1"}, 1), ({"OMP_NUM_THREADS": "2"}, 2),
                         ({"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "2"}, 2), ({}, cores)):
        environment = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
        done = run_job(tmp_path, server[1], after=after, env=env, environment=environment)
        assert done.returncode == 0 and int(done.stdout.split()[2]) == server[0].process.pid, done.stderr
        assert done.stdout.splitlines()[-1] == f"[{threads}]", env  # as a fresh process sizes its pool as it loads


def test_a_job_the_server_cannot_run_runs_in_its_own_process(server, tmp_path):
    other = "from stratbench.jobs import server as jobserver\njobserver._identity = lambda: ('another', 'python')"
    for before, env in ((other, {}), ("", {jobserver.ENV: "0"}), ("", {jobserver.ENV: str(tmp_path / "nothing")})):
        done = run_job(tmp_path, env.get(jobserver.ENV, server[1]), before=before)
        assert done.returncode == 0, done.stderr
        assert int(done.stdout.split()[2]) == os.getpid()  # its own process, a child of this one


def test_a_killed_job_takes_its_forked_child_with_it(server, tmp_path):
    script = tmp_path / "job.py"
    script.write_text(JOB.format(before="", after="sys.stdout.flush(); import time; time.sleep(60)"))
    job = subprocess.Popen([sys.executable, str(script)], env={**os.environ, jobserver.ENV: server[1]},
                           stdout=subprocess.PIPE, text=True)
    child = int(job.stdout.readline().split()[1])
    job.send_signal(signal.SIGKILL)
    job.wait()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists()
    assert f"child {child} (job.py) killed: its job had ended" in server[2].read_text()


def test_a_server_killed_outright_takes_its_children_with_it_and_their_jobs_fail(tmp_path):
    """SIGKILL gives the server no cleanup: its forked child dies with it (``PR_SET_PDEATHSIG``), and the job,
    whose connection closes, fails instead of waiting or reporting success."""
    running = jobserver.start(tmp_path / "jobserver.log", preload=())
    address = os.environ.pop(jobserver.ENV)
    deadline = time.monotonic() + 60
    while not running.ready():
        assert running.process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    script = tmp_path / "job.py"
    script.write_text(JOB.format(before="", after="sys.stdout.flush(); import time; time.sleep(60)"))
    job = subprocess.Popen([sys.executable, str(script)], env={**os.environ, jobserver.ENV: address},
                           stdout=subprocess.PIPE, text=True)
    child = int(job.stdout.readline().split()[1])
    running.process.kill()
    assert job.wait(timeout=10) == 1
    deadline = time.monotonic() + 10
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{child}").exists()
    running.process.wait()
    shutil.rmtree(Path(address).parent, ignore_errors=True)  # a killed server leaves its socket's folder


def test_the_server_leaves_when_the_process_that_started_it_does(tmp_path):
    code = ("import sys, time; from stratbench.jobs import server as jobserver; s = jobserver.start(sys.argv[1], preload=());"
            "[time.sleep(0.05) for _ in range(400) if not s.ready()]; print(s.process.pid, s.address)")
    pid, address = subprocess.run([sys.executable, "-c", code, str(tmp_path / "log")], capture_output=True, text=True,
                                  check=True).stdout.split()
    deadline = time.monotonic() + 10
    while Path(f"/proc/{pid}").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z" \
            and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not Path(address).exists() and not Path(address).parent.exists()


def test_a_server_that_failed_says_so_when_stopped(tmp_path):
    running = jobserver.start(tmp_path / "log", preload=("pandas",))  # a few tenths of a second before it binds
    occupied = Path(running.address + ".new")
    occupied.mkdir()  # the server cannot bind its socket
    running.process.wait(60)
    assert running.stop() == 1 and "Error" in (tmp_path / "log").read_text()
    os.environ.pop(jobserver.ENV, None)


def test_the_server_is_off_where_the_user_turns_it_off(monkeypatch, tmp_path):
    monkeypatch.setenv(jobserver.ENV, "0")
    assert not jobserver.enabled() and jobserver.start(tmp_path / "log") is None
    monkeypatch.delenv(jobserver.ENV)
    assert jobserver.enabled() == sys.platform.startswith("linux")


def test_the_server_preloads_every_module_a_job_of_each_kind_imports():
    """PRELOAD is the union of what the estimate's calibration says each kind of job imports."""
    from stratbench.cost.calibration import STARTUP_IMPORTS

    imported = {name.strip() for code in STARTUP_IMPORTS.values() for name in code.removeprefix("import ").split(",")}
    assert imported <= set(jobserver.PRELOAD), imported - set(jobserver.PRELOAD)


def test_a_fork_that_fails_leaves_the_job_to_run_on_its_own_and_the_server_serving(monkeypatch):
    job, server_end = socket.socketpair()
    request = jobserver._encode(dict(identity=jobserver._identity(), argv=["job.py"], cwd="/", env={}, path=[],
                                     umask=0o22))
    socket.send_fds(job, [jobserver._HEADER.pack(len(request)) + request], [0, 1, 2])

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert jobserver._fork_job(server_end, socket.socket(socket.AF_UNIX), []) is None
    assert jobserver._receive(job) == {"refused": "[Errno 11] Resource temporarily unavailable"}


def test_a_temporary_folder_too_deep_for_a_socket_gives_the_server_one_in_tmp(monkeypatch, tmp_path):
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    monkeypatch.setattr(tempfile, "tempdir", str(deep))
    running = jobserver.start(tmp_path / "log", preload=())
    try:
        assert running.address.startswith("/tmp/stratbench-")
        deadline = time.monotonic() + 60
        while not running.ready():
            assert running.process.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        assert running.stop() is None


def test_the_server_forks_from_a_process_with_one_thread_and_python_does_not_warn(tmp_path):
    """CPython 3.12+ warns (DeprecationWarning) at a fork of a process with threads, which may deadlock the child:
    the server imports every module the jobs use with their thread pools at one thread, so it has none to fork."""
    log = tmp_path / "jobserver.log"
    running = jobserver.start(log)  # every module of PRELOAD
    address = os.environ.pop(jobserver.ENV)
    try:
        deadline = time.monotonic() + 120
        while not running.ready():
            assert running.process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.05)
        status = Path(f"/proc/{running.process.pid}/status").read_text()
        assert "Threads:\t1\n" in status, [line for line in status.splitlines() if line.startswith("Threads")]
        done = run_job(tmp_path, address, env={"PYTHONWARNINGS": "error"})
        assert done.returncode == 0 and int(done.stdout.split()[2]) == running.process.pid, done.stderr
    finally:
        assert running.stop() is None
    assert "Warning" not in log.read_text(), log.read_text()
    # the check can fail: a process with a thread running warns at its fork on the Pythons that warn
    if sys.version_info >= (3, 12):
        import threading

        stop = threading.Event()
        worker = threading.Thread(target=stop.wait)
        worker.start()
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                pid = os.fork()
                if pid == 0:
                    os._exit(0)
                os.waitpid(pid, 0)
        finally:
            stop.set()
            worker.join()
        assert any("multi-threaded" in str(w.message) for w in caught)


def test_the_server_takes_no_pickle_and_serves_only_its_own_user(monkeypatch):
    """Its messages are JSON: a pickle (which would run code as it loads) or a JSON value that is not a request is
    refused unread; a peer of another user (SO_PEERCRED) is refused."""
    good = dict(identity=jobserver._identity(), argv=["job.py"], cwd="/", env={}, path=[], umask=0o22)

    def answer(body):
        job, server_end = socket.socketpair()
        socket.send_fds(job, [jobserver._HEADER.pack(len(body)) + body], [0, 1, 2])
        job.shutdown(socket.SHUT_WR)
        assert jobserver._fork_job(server_end, socket.socket(socket.AF_UNIX), []) is None
        return jobserver._receive(job)

    forked = []
    monkeypatch.setattr(os, "fork", lambda: forked.append(1) or (_ for _ in ()).throw(OSError("no fork here")))
    assert answer(pickle.dumps(good)) is None  # dropped, never unpickled
    assert answer(b"[1, 2]") is None
    assert answer(jobserver._encode({**good, "code": "print(1)"})) == {"refused": "another interpreter or package"}
    monkeypatch.setattr(jobserver, "_peer_uid", lambda conn: os.getuid() + 1)
    assert answer(jobserver._encode(good)) == {"refused": "another user"}
    assert forked == []
    monkeypatch.undo()
    job, server_end = socket.socketpair()
    assert jobserver._peer_uid(server_end) == os.getuid()
