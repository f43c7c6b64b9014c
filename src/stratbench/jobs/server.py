"""A warm process that starts a local run's script jobs by forking, so that a job does not pay for importing
scikit-learn, pandas, matplotlib and stratbench again (up to about 1 s a job on the project's machine, where a
job's own work is often a few seconds).

The Snakefile starts one server per run (:func:`start`, in ``onstart``; local execution only) and passes its
address to the jobs in ``STRATBENCH_JOBSERVER``. The server imports :data:`PRELOAD` once, then waits. A job's
script (Snakemake's ``script:``, whose first call is :func:`stratbench.jobs.script.setup`) calls
:func:`delegate`: it sends its command line, working folder, environment, ``sys.path`` and standard streams
to the server, which forks; the forked child runs the same script in that state, and the job exits with the
child's status. Nothing else changes: the child draws nothing from the server's state, and
``tests/test_workflow.py`` finds a study's outputs byte-identical with and without the server. The messages are
JSON (the server unpickles nothing it is sent), and the server serves only its own user (the peer's credentials,
``SO_PEERCRED``, beside the socket's folder that only this user can enter).

The server forks from a process with one thread, so that no child inherits a lock held by a thread that is not
there (CPython 3.12 warns at every fork of a process with threads): it imports :data:`PRELOAD` with every thread
pool at one thread (:data:`ONE_THREAD`: OpenBLAS, OpenMP and MKL start their pools as they load), and a child
sizes its pools from its job's environment (``OMP_NUM_THREADS``, which Snakemake sets to the job's threads) as a
fresh process would as it loads them. ``tests/test_jobserver.py`` counts the server's threads; CI runs it on every
Python the project declares (``.ci/pythons``).

A job runs as before, in its own process, wherever the server cannot serve it: no server yet (the first
jobs of a run, while it imports), another Python or environment (``--use-conda``, a container), another
machine (a cluster executor: no server is started), off Linux (:func:`enabled`), or ``STRATBENCH_JOBSERVER=0``.
A job killed by Snakemake (or by Ctrl-C) closes its connection, and the server kills its child; a server killed
outright takes its children with it, and their jobs fail. The server leaves when Snakemake does.

Snakemake's ``benchmark:`` files measure the job's own process, so for a forked job they hold its wall time
but not the child's CPU time nor its memory; the ``stratbench-usage`` line of the job's log
(:func:`stratbench.jobs.script.usage_line`) measures the child, which is the job's work.
"""

from __future__ import annotations

import gc
import json
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENV = "STRATBENCH_JOBSERVER"  # the server's socket, in a job's environment; "0" or "off" turns the server off
# what the jobs of every kind import before they work (stratbench.cost.calibration.STARTUP_IMPORTS, which
# tests/test_jobserver.py checks it covers)
PRELOAD = ("snakemake.script", "stratbench.jobs.script", "numpy", "scipy.sparse", "pandas", "sklearn.ensemble", "sklearn.linear_model",
           "sklearn.neighbors", "matplotlib.pyplot", "stratbench.classifiers", "stratbench.datasets",
           "stratbench.classifiers.evaluation", "stratbench.figures", "stratbench.io", "stratbench.measures.fold_quality",
           "stratbench.labels.network", "stratbench.seeds", "stratbench.stratifiers")
_HEADER = struct.Struct("!I")
# what the server imports PRELOAD under: the variables that size the thread pools of OpenBLAS, OpenMP, MKL,
# BLIS and numexpr as each loads, at one thread (a pool of one starts no thread)
ONE_THREAD = dict.fromkeys(("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                            "NUMEXPR_NUM_THREADS", "VECLIB_MAXIMUM_THREADS"), "1")


def enabled() -> bool:
    """False where the user turned the server off (``STRATBENCH_JOBSERVER=0`` or ``off``) and off Linux: macOS's
    system libraries (Accelerate, which numpy uses there) are not safe to fork once loaded, which is why Python's
    multiprocessing no longer forks there; Windows has no fork."""
    return (sys.platform.startswith("linux")
            and os.environ.get(ENV, "").strip().lower() not in ("0", "off", "false", "no"))


def _identity() -> list[str]:
    """What must match between a job and the server for the server to run it: the interpreter, its
    environment and this package's files."""
    return [sys.executable, sys.prefix, sys.version, str(Path(__file__).resolve().parent)]


class Server:
    """A running server (:func:`start`): its address and process."""

    def __init__(self, address: str, process: subprocess.Popen):
        self.address, self.process = address, process

    def ready(self) -> bool:
        """The server has imported :data:`PRELOAD` and listens."""
        return Path(self.address).exists()

    def stop(self) -> int | None:
        """Stop the server (jobs it is running are killed); remove its socket's folder. The status it had left
        with before it was stopped (an error is in its log), or None."""
        early = self.process.poll()
        if early is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        _remove(self.address)
        if os.environ.get(ENV) == self.address:
            del os.environ[ENV]
        return early


def start(log: str | os.PathLike, preload=PRELOAD) -> Server | None:
    """Start a server for this process's jobs, in the background (it listens once it has imported
    ``preload``), logging to ``log``, and put its address in ``os.environ[ENV]`` for the jobs to find;
    None where the server is off (:func:`enabled`)."""
    if not enabled():
        return None
    folder = tempfile.mkdtemp(prefix="stratbench-")  # a folder only this user can enter
    if len(os.fsencode(folder)) > 90:  # a socket's address holds 108 bytes on Linux: TMPDIR is too deep for one
        os.rmdir(folder)
        folder = tempfile.mkdtemp(prefix="stratbench-", dir="/tmp")
    address = str(Path(folder) / "jobs")
    Path(log).parent.mkdir(parents=True, exist_ok=True)
    with open(log, "w") as stream:
        process = subprocess.Popen([sys.executable, "-m", "stratbench.jobs.server", address, str(os.getpid()),
                                    *preload], stdin=subprocess.DEVNULL, stdout=stream, stderr=stream,
                                   env={**os.environ, **ONE_THREAD},
                                   start_new_session=True)  # Ctrl-C reaches the jobs, which end their children
    os.environ[ENV] = address
    return Server(address, process)


def delegate() -> None:
    """Run this job (the script Python is running) in the server, and exit with its status; return at once,
    having done nothing, where no server can run it (see the module doc)."""
    address = os.environ.get(ENV)
    if not address or not enabled() or not (sys.argv and os.path.isfile(sys.argv[0])):
        return  # no server, or nothing the child could run again (python -c)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(address)
        umask = os.umask(0)
        os.umask(umask)
        request = _encode(dict(identity=_identity(), argv=sys.argv, cwd=os.getcwd(), env=dict(os.environ),
                               path=sys.path, umask=umask))
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        socket.send_fds(conn, [_HEADER.pack(len(request)) + request], [0, 1, 2])
        answer = _receive(conn)
    except OSError:
        conn.close()
        return
    if answer is None or answer.get("refused"):
        conn.close()
        return  # the server cannot run it: run here
    status = _receive(conn)  # blocks until the child ends; Ctrl-C or a kill ends this process, and so the child
    os._exit(status["status"] if status else 1)


def _encode(message: dict) -> bytes:
    return json.dumps(message).encode()


def _decode(body: bytes) -> dict:
    """A message's JSON object; ValueError for anything else."""
    message = json.loads(body)
    if not isinstance(message, dict):
        raise ValueError("not a message")
    return message


def _receive(conn: socket.socket):
    """One length-prefixed JSON message, or None where the connection closed first."""
    header = _exactly(conn, _HEADER.size)
    if header is None:
        return None
    body = _exactly(conn, _HEADER.unpack(header)[0])
    return None if body is None else _decode(body)


def _exactly(conn: socket.socket, size: int) -> bytes | None:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def _send(conn: socket.socket, message: dict) -> None:
    body = _encode(message)
    try:
        conn.sendall(_HEADER.pack(len(body)) + body)
    except OSError:
        pass  # the job has gone: nothing to tell


def serve(address: str, parent: int, preload) -> None:
    """The server's loop: import ``preload``, listen at ``address``, fork a child per job, tell each job its
    child's status; kill a child whose job has gone; leave when ``parent`` (Snakemake) has and no child runs,
    or on SIGTERM (killing the children)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    started = time.perf_counter()
    gc.disable()  # with gc.freeze below, the children share the imported modules' memory (Python's gc docs)
    for module in preload:
        try:
            __import__(module)
        except ImportError as error:
            print(f"not preloaded: {module} ({error})", flush=True)
    gc.freeze()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    wake, wake_up = socket.socketpair()  # a child's end (SIGCHLD) or SIGTERM wakes the loop at once
    wake_up.setblocking(False)
    signal.set_wakeup_fd(wake_up.fileno())
    signal.signal(signal.SIGCHLD, lambda *_: None)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(address + ".new")
    listener.listen(128)
    os.rename(address + ".new", address)  # jobs find the address only once the server listens
    print(f"listening at {address} after {time.perf_counter() - started:.2f} s of imports", flush=True)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    selector.register(wake, selectors.EVENT_READ)
    children: dict[socket.socket, tuple[int, str, float]] = {}  # a job's connection → its child's pid, script, start
    try:
        while not stopping and (children or os.getppid() == parent):
            for key, _ in selector.select(timeout=1.0):
                if key.fileobj is wake:
                    wake.recv(4096)
                elif key.fileobj is listener:
                    conn, _ = listener.accept()
                    child = _fork_job(conn, listener, [wake, wake_up, *children])
                    if child is not None:
                        children[conn] = (*child, time.perf_counter())
                        selector.register(conn, selectors.EVENT_READ)
                elif key.fileobj in children:  # readable only once the job has gone: it sends nothing more
                    pid, script, _ = children.pop(key.fileobj)
                    selector.unregister(key.fileobj)
                    key.fileobj.close()
                    _kill(pid)
                    print(f"child {pid} ({script}) killed: its job had ended", flush=True)
            for conn, (pid, script, since) in list(children.items()):
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    code = os.waitstatus_to_exitcode(status)  # -N: killed by signal N, which a shell gives as 128 + N
                    print(f"child {pid} ({script}) ended with status {code} after {time.perf_counter() - since:.2f} s",
                          flush=True)  # logged before the job hears of it: its log line is there once the job has ended
                    _send(conn, dict(status=code if code >= 0 else 128 - code))
                    selector.unregister(conn)
                    conn.close()
                    del children[conn]
    finally:
        for pid, *_ in children.values():
            _kill(pid)
        _remove(address)


def _remove(address: str) -> None:
    """The server's socket and its folder."""
    Path(address).unlink(missing_ok=True)
    try:
        Path(address).parent.rmdir()
    except OSError:
        pass


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass


def _fork_job(conn: socket.socket, listener: socket.socket, others) -> tuple[int, str] | None:
    """Read a job's request from ``conn`` and fork its child; the child's pid and script (its file's name:
    Snakemake's copy of the rule's script ends with the script's own), or None where refused."""
    fds = []
    try:
        conn.settimeout(10)  # a job sends its request as it connects: a connection that does not is dropped
        header, fds, _, _ = socket.recv_fds(conn, _HEADER.size, 3)
        if len(header) < _HEADER.size or len(fds) != 3:
            raise OSError("short request")
        body = _exactly(conn, _HEADER.unpack(header)[0])
        request = _decode(body) if body is not None else None
        conn.settimeout(None)
    except (OSError, ValueError):  # ValueError: not JSON, or not an object
        return _refuse(conn, fds, None)
    if _peer_uid(conn) != os.getuid():
        return _refuse(conn, fds, "another user")
    if request is None or request.get("identity") != _identity() or set(request) != _REQUEST:
        return _refuse(conn, fds, "another interpreter or package" if request else "no request")
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    server = os.getpid()
    try:
        pid = os.fork()
    except OSError as error:  # no memory or processes left now: the job runs in its own Python, the others go on
        print(f"fork failed ({error}): {Path(request['argv'][0]).name} runs on its own", flush=True)
        return _refuse(conn, fds, str(error))
    if pid == 0:  # the job's child: never returns
        _die_with(server)
        signal.set_wakeup_fd(-1)
        for other in (listener, *others):
            other.close()
        _run_job(conn, request, fds)
    for fd in fds:
        os.close(fd)
    _send(conn, dict(pid=pid))
    return pid, Path(request["argv"][0]).name


_REQUEST = {"identity", "argv", "cwd", "env", "path", "umask"}  # what a job's request holds (delegate)


def _peer_uid(conn: socket.socket) -> int:
    """The user id of the process at the other end of ``conn`` (Linux's ``SO_PEERCRED``: pid, uid, gid)."""
    credentials = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", credentials)[1]


def _refuse(conn: socket.socket, fds: list[int], why: str | None) -> None:
    """Tell the job why the server will not run it (where it can still hear: ``why`` not None), so that it runs in
    its own Python, and close the connection and the streams it sent."""
    if why is not None:
        _send(conn, dict(refused=why))
    conn.close()
    for fd in fds:
        os.close(fd)


def _die_with(server: int) -> None:
    """In the forked child: be killed when the server dies (Linux's ``PR_SET_PDEATHSIG``), so that a server killed
    outright (SIGKILL, the out-of-memory killer) leaves no job running on whose client has already failed; leave
    at once if it died before this call."""
    import ctypes

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # no prctl: only the server's orderly exit kills its children
        return
    if os.getppid() != server:
        os._exit(1)


def _run_job(conn: socket.socket, request: dict, fds: list[int]) -> None:
    """In the forked child: become the job (its streams, folder, environment, import path, thread pools),
    run its script as ``__main__`` and exit with the status a fresh Python would have."""
    code = 1
    try:
        conn.close()
        gc.enable()
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            if fd != target:
                os.dup2(fd, target)
                os.close(fd)
        os.chdir(request["cwd"])
        os.umask(request["umask"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.environ.pop(ENV, None)  # the script's setup must not delegate again
        sys.path[:] = request["path"]
        sys.argv[:] = request["argv"]
        _fresh_process_state()
        import runpy

        try:
            runpy.run_path(request["argv"][0], run_name="__main__")
            code = 0
        except SystemExit as leave:  # as Python leaves: None is 0, a number itself, anything else printed and 1
            code = 0 if leave.code is None else leave.code if isinstance(leave.code, int) else 1
            if not isinstance(leave.code, int | None):
                print(leave.code, file=sys.stderr)
        except BaseException:
            sys.excepthook(*sys.exc_info())
            code = 1
        import atexit

        atexit._run_exitfuncs()  # what a fresh Python runs as it leaves (the job's usage line among them)
    finally:  # never unwind into the server's loop, whose cleanup would kill the sibling jobs: os._exit
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:  # noqa: BLE001 - leaving: a stream that cannot flush has nothing to keep
                pass
        os._exit(code)


def _fresh_process_state() -> None:
    """What a fresh Python would have that a forked child shares with the server: its temporary folder, its own
    random streams (for code that draws without a seed; stratbench always passes one), thread pools sized by
    the job's environment."""
    import random

    tempfile.tempdir = None  # found again from the job's TMPDIR (Snakemake's tmpdir resource)
    random.seed()
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed()
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=_pool_sizes(os.environ))


def _pool_sizes(env) -> dict[str, int]:
    """The threads a fresh process given ``env`` would start in each pool as it loads: BLAS (OpenBLAS's order of
    its variables) and OpenMP, else one per core this process may use; the server loaded both at one."""
    def first(*names):
        for name in names:
            value = env.get(name, "").strip()
            if value.isdigit() and int(value) > 0:
                return int(value)
        return len(os.sched_getaffinity(0))

    return {"blas": first("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"),
            "openmp": first("OMP_NUM_THREADS")}


if __name__ == "__main__":
    serve(sys.argv[1], int(sys.argv[2]), sys.argv[3:])
