"""Hostile programs for the sandbox's attack suite. Each defines `act(p)`; `main(p)` returns {"blocked": why} when
the attempt failed inside the sandbox, {"escaped": what} when it got through. `p` holds `canary` (a world-writable
folder of the host the program tries to change), `parent` (the test process's pid) and `port` (a TCP listener of
the test process). Programs run with and without the audit hook: the kernel layer must hold alone."""

from __future__ import annotations

PRELUDE = '''
import errno, os, sys, time

def libc():
    import ctypes
    lib = ctypes.CDLL(None, use_errno=True)
    return lib, ctypes

def check(result):
    """A libc call's -1 as an OSError."""
    lib, ctypes = libc()
    if result == -1:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return result

def main(p):
    try:
        out = act(p)
    except BaseException as exc:
        return {"blocked": f"{type(exc).__name__}: {exc}"[:500]}
    if isinstance(out, dict) and "blocked" in out:
        return out
    return {"escaped": repr(out)[:500]}
'''

ATTACKS: dict[str, str] = {
    # -- process creation ------------------------------------------------------------------------------------
    "fork_bomb": "def act(p):\n    for _ in range(64):\n        os.fork()\n",
    "os_system": "def act(p):\n    if os.system(f\"touch {p['canary']}/system\") != 0:\n        raise OSError('failed')\n",
    "subprocess_from_a_loaded_module": (
        "def act(p):\n"
        "    sp = sys.modules['envfactory_gym.sandbox.runner'].subprocess\n"
        "    sp.Popen(['/bin/sh', '-c', f\"touch {p['canary']}/popen\"]).wait()\n"
        "    sp.Popen([sys.executable, '-c', f\"open('{p['canary']}/popen', 'w')\"]).wait()\n"
    ),
    "subprocess_fork_exec_private": (
        "def act(p):\n"
        "    sp = sys.modules['envfactory_gym.sandbox.runner'].subprocess\n"
        "    r, w = os.pipe()\n"
        "    return sp._fork_exec([sys.executable, '-c', 'pass'], [os.fsencode(sys.executable)], True, (w,), None,\n"
        "                         None, -1, -1, -1, -1, -1, -1, r, w, True, False, -1, None, None, None, -1, None, False)\n"
    ),
    "posix_spawn": "def act(p):\n    return os.posix_spawn(sys.executable, [sys.executable, '-c', 'pass'], {})\n",
    "exec_replaces_the_worker": (
        "def act(p):\n    os.execv(sys.executable, [sys.executable, '-c', f\"open('{p['canary']}/exec', 'w')\"])\n"
    ),
    "ctypes_fork_syscall": "def act(p):\n    lib, _ = libc()\n    pid = check(lib.syscall(57))\n    if pid == 0:\n        os._exit(0)\n    return pid\n",
    "ctypes_execve": (
        "def act(p):\n    lib, ctypes = libc()\n"
        "    argv = (ctypes.c_char_p * 2)(os.fsencode(sys.executable), None)\n"
        "    return check(lib.execve(os.fsencode(sys.executable), argv, None))\n"
    ),
    "multiprocessing": (
        "def act(p):\n    import multiprocessing\n    proc = multiprocessing.Process(target=print)\n    proc.start()\n"
        "    proc.join()\n    return proc.exitcode\n"
    ),
    "thread_bomb": (
        "import threading\n"
        "def act(p):\n    stop = threading.Event()\n    started = []\n"
        "    try:\n        for _ in range(5000):\n"
        "            t = threading.Thread(target=stop.wait, daemon=True)\n            t.start()\n            started.append(t)\n"
        "    finally:\n        stop.set()\n"
        "    return len(started)\n"
    ),
    # -- the filesystem outside --------------------------------------------------------------------------------
    "write_outside": "def act(p):\n    open(f\"{p['canary']}/escaped.txt\", 'w').write('x')\n",
    "delete_outside": "def act(p):\n    os.remove(f\"{p['canary']}/precious.txt\")\n",
    "overwrite_outside": "def act(p):\n    open(f\"{p['canary']}/precious.txt\", 'r+').write('overwritten')\n",
    "sqlite_connect_outside": (
        "import sqlite3\ndef act(p):\n    sqlite3.connect(f\"{p['canary']}/x.db\").execute('create table t(x)')\n"
    ),
    "sqlite_attach_outside": (
        "import sqlite3\ndef act(p):\n    db = sqlite3.connect(':memory:')\n"
        "    db.execute(f\"ATTACH DATABASE '{p['canary']}/attached.db' AS y\")\n"
        "    db.execute('create table y.t(x)')\n    db.commit()\n"
    ),
    "rename_with_dst_dir_fd": (
        "def act(p):\n    open('moved.txt', 'w').write('x')\n    failures = []\n"
        "    for folder in ('/', p['canary'], '/usr/lib'):\n"
        "        try:\n            fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)\n"
        "            os.rename('moved.txt', 'moved.txt', dst_dir_fd=fd)\n            return folder\n"
        "        except OSError as exc:\n            failures.append(str(exc))\n"
        "    return {'blocked': failures}\n"
    ),
    "write_into_the_venv": (
        "import sysconfig\ndef act(p):\n    open(sysconfig.get_paths()['purelib'] + '/evil.pth', 'w').write('import os')\n"
    ),
    "write_into_the_runtime_source": (
        "def act(p):\n    import envfactory_gym\n    open(envfactory_gym.__file__, 'a').write('# evil')\n"
    ),
    "write_in_the_root_folder": "def act(p):\n    os.mkdir('/tmp')\n",
    "symlink_out": (
        "def act(p):\n    os.symlink(f\"{p['canary']}/precious.txt\", 'link')\n    open('link', 'w').write('x')\n"
    ),
    "symlink_race": (
        "import threading\n"
        "def act(p):\n    open('inside.txt', 'w').close()\n    outside = f\"{p['canary']}/raced.txt\"\n"
        "    stop = threading.Event()\n"
        "    def flip():\n        while not stop.is_set():\n"
        "            for target in ('inside.txt', outside):\n"
        "                try:\n                    os.symlink(target, 'race.tmp')\n                    os.replace('race.tmp', 'race')\n"
        "                except OSError:\n                    pass\n"
        "    thread = threading.Thread(target=flip)\n    thread.start()\n    failures = 0\n"
        "    try:\n        for _ in range(300):\n            try:\n                open('race', 'a').write('x')\n"
        "            except OSError:\n                failures += 1\n"
        "    finally:\n        stop.set()\n        thread.join()\n"
        "    return {'blocked': f'{failures} failed writes; the canary check decides'}\n"
    ),
    "hard_link_out_and_in": (
        "def act(p):\n    open('mine.txt', 'w').close()\n    failures = []\n"
        "    for source, target in ((os.path.realpath(sys.executable), 'python-link'), ('mine.txt', '/mine-link'),\n"
        "                           ('mine.txt', f\"{p['canary']}/link\"), ('/etc/ld.so.cache', 'cache-link')):\n"
        "        try:\n            os.link(source, target)\n            return (source, target)\n"
        "        except OSError as exc:\n            failures.append(str(exc))\n"
        "    return {'blocked': failures}\n"
    ),
    "dir_fd_dotdot": (
        "def act(p):\n    fd = os.open('.', os.O_RDONLY | os.O_DIRECTORY)\n"
        "    target = '../../../../../..' + p['canary'] + '/dotdot.txt'\n"
        "    os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o666, dir_fd=fd))\n"
    ),
    "chroot_escape": "def act(p):\n    os.mkdir('jail')\n    os.chroot('jail')\n    return os.listdir('../../..')\n",
    "ctypes_mount_over_libs": (
        "def act(p):\n    lib, _ = libc()\n    return check(lib.mount(b'none', b'/usr/lib', b'tmpfs', 0, None))\n"
    ),
    "ctypes_new_user_namespace": (
        "def act(p):\n    lib, _ = libc()\n    return check(lib.unshare(0x10000000 | 0x00020000))\n"
    ),
    "disk_fill_one_file": (
        "def act(p):\n    with open('big.bin', 'wb') as f:\n        for _ in range(2048):\n            f.write(b'x' * 2**20)\n"
    ),
    "disk_fill_many_files": (
        "def act(p):\n    for i in range(4096):\n        with open(f'fill{i}.bin', 'wb') as f:\n"
        "            f.write(b'x' * 2**20)\n"
    ),
    "dev_shm_and_devices": (
        "def act(p):\n    failures = []\n"
        "    for path, mode in (('/dev/shm/x', 'w'), ('/dev/mem', 'rb'), ('/dev/kmsg', 'rb'), ('/dev/sda', 'rb'),\n"
        "                       ('/dev/tty', 'w')):\n"
        "        try:\n            open(path, mode).close()\n            return path\n"
        "        except OSError as exc:\n            failures.append(str(exc))\n"
        "    return {'blocked': failures}\n"
    ),
    # -- /proc and /sys --------------------------------------------------------------------------------------
    "proc_other_processes": (
        "def act(p):\n    pids = [int(n) for n in os.listdir('/proc') if n.isdigit()]\n"
        "    others = [pid for pid in pids if pid != os.getpid()]\n"
        "    if others:\n        return [open(f'/proc/{pid}/cmdline', 'rb').read() for pid in others]\n"
        "    return {'blocked': f'only itself is visible: {pids}'}\n"
    ),
    "proc_parent_by_host_pid": ("def act(p):\n    return open(f\"/proc/{p['parent']}/environ\", 'rb').read()[:100]\n"),
    "proc_parent_cwd": "def act(p):\n    open(f\"/proc/{p['parent']}/cwd/escaped.txt\", 'w').write('x')\n",
    "proc_sys_write": "def act(p):\n    open('/proc/sys/kernel/core_pattern', 'w').write('|/bin/sh')\n",
    "proc_sysrq": "def act(p):\n    open('/proc/sysrq-trigger', 'w').write('h')\n",
    "proc_self_mem_of_pid1": (
        "def act(p):\n    fd = os.open('/proc/1/mem', os.O_RDWR)\n    os.close(fd)\n"
        "    return {'blocked': 'pid 1 is the worker itself (its own namespace)'} if os.getpid() == 1 else 'other pid 1'\n"
    ),
    "proc_root_link": ("def act(p):\n    seen = os.listdir('/proc/1/root' + p['canary'])\n    return seen\n"),
    "sys_tricks": (
        "def act(p):\n    failures = []\n"
        "    for path, mode in (('/sys/kernel/uevent_helper', 'w'), ('/sys/fs/cgroup/cgroup.procs', 'w'),\n"
        "                       ('/sys/class/net', 'r')):\n"
        "        try:\n            open(path, mode).close()\n            return path\n"
        "        except OSError as exc:\n            failures.append(str(exc))\n"
        "    return {'blocked': failures}\n"
    ),
    # -- other processes' memory and signals --------------------------------------------------------------------
    "process_vm_readv_parent": (
        "def act(p):\n    lib, ctypes = libc()\n"
        "    class IoVec(ctypes.Structure):\n        _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]\n"
        "    buf = ctypes.create_string_buffer(64)\n    local = IoVec(ctypes.addressof(buf), 64)\n"
        "    remote = IoVec(0x400000, 64)\n"
        "    return check(lib.process_vm_readv(p['parent'], ctypes.byref(local), 1, ctypes.byref(remote), 1, 0))\n"
    ),
    "ptrace_attach_parent": (
        "def act(p):\n    lib, _ = libc()\n    return check(lib.ptrace(16, p['parent'], None, None))\n"
    ),
    "read_parent_memory_file": "def act(p):\n    return open(f\"/proc/{p['parent']}/mem\", 'rb').read(16)\n",
    "signal_the_parent": "import signal\ndef act(p):\n    os.kill(p['parent'], signal.SIGKILL)\n",
    "ctypes_kill_parent": "def act(p):\n    lib, _ = libc()\n    return check(lib.kill(p['parent'], 9))\n",
    "kill_every_process": "import signal\ndef act(p):\n    os.kill(-1, signal.SIGKILL)\n",
    # -- descriptors ---------------------------------------------------------------------------------------------
    "inherited_descriptors": (
        "def act(p):\n    leaks = {}\n"
        "    for name in os.listdir('/proc/self/fd'):\n"
        "        target = os.readlink(f'/proc/self/fd/{name}')\n"
        "        if target.startswith('/') and not target.startswith(('/scratch', '/dev/null', '/proc')):\n"
        "            leaks[name] = target\n"
        "    return leaks if leaks else {'blocked': 'only pipes are inherited'}\n"
    ),
    "garbage_into_the_result_pipe": "def act(p):\n    os.write(3, b'\\xff' * 64)\n    return {'blocked': 'nothing'}\n",
    "forged_results_for_every_id": (
        "import json, struct\n"
        "def act(p):\n    for call in range(1, 200):\n"
        "        body = json.dumps({'type': 'result', 'id': call, 'status': 'ok', 'value': {'forged': True}}).encode()\n"
        "        os.write(3, struct.pack('>I', len(body)) + body)\n"
        "    return {'blocked': 'forged'}\n"
    ),
    "results_forged_ahead": (
        "import json, struct, threading\n"
        "def forge():\n    time.sleep(0.3)  # after this call's answer: while the worker waits for the next request\n"
        "    for call in range(1, 500):\n"
        "        body = json.dumps({'type': 'result', 'id': call, 'status': 'ok', 'value': {'forged': True}}).encode()\n"
        "        os.write(3, struct.pack('>I', len(body)) + body)\n"
        "def act(p):\n    threading.Thread(target=forge, daemon=True).start()\n"
        "    return {'blocked': 'the next calls decide'}\n"
    ),
    "steal_the_next_request": ("def act(p):\n    os.set_blocking(0, False)\n    return os.read(0, 1 << 20)\n"),
    "truncate_the_violation_log": (
        "def act(p):\n    try:\n        open(f\"{p['canary']}/evil\", 'w')\n    except OSError:\n        pass\n"
        "    for fd in range(3, 10):\n        try:\n            os.truncate(f'/proc/self/fd/{fd}', 0)\n"
        "        except OSError:\n            pass\n"
        "    return {'blocked': 'the log is not here'}\n"
    ),
    # -- network -----------------------------------------------------------------------------------------------------
    "tcp_to_the_parent": (
        "def act(p):\n    import socket\n    socket.create_connection(('127.0.0.1', p['port']), timeout=2).close()\n"
    ),
    "socket_through_a_loaded_module": (
        "import asyncio.base_events as loaded\n"
        "def act(p):\n    loaded.socket.create_connection(('127.0.0.1', p['port']), timeout=2).close()\n"
    ),
    "sockets_of_every_family": (
        "def act(p):\n    import socket\n    opened = []\n"
        "    families = {n: getattr(socket, n) for n in dir(socket) if n.startswith('AF_') and n != 'AF_UNIX'}\n"
        "    for name, family in families.items():\n"
        "        for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM, socket.SOCK_RAW, socket.SOCK_SEQPACKET):\n"
        "            try:\n                socket.socket(family, kind).close()\n                opened.append(name)\n"
        "            except OSError:\n                pass\n"
        "    return opened or {'blocked': f'{len(families)} families refused'}\n"
    ),
    "ctypes_raw_sockets": (
        "def act(p):\n    lib, _ = libc()\n    opened = []\n"
        "    for family in (2, 10, 16, 17, 40, 38):  # INET, INET6, NETLINK, PACKET, VSOCK, ALG\n"
        "        for kind in (1, 2, 3):\n            if lib.socket(family, kind, 0) >= 0:\n                opened.append((family, kind))\n"
        "    return opened or {'blocked': 'every family refused'}\n"
    ),
    "unix_socket_to_the_host": (
        "def act(p):\n    import socket\n    failures = []\n"
        "    for address in ('\\0' + p['abstract'], '/run/docker.sock', '/var/run/dbus/system_bus_socket'):\n"
        "        s = socket.socket(socket.AF_UNIX)\n        try:\n            s.connect(address)\n            return address\n"
        "        except OSError as exc:\n            failures.append(str(exc))\n        finally:\n            s.close()\n"
        "    return {'blocked': failures}\n"
    ),
    "dns_lookup": "def act(p):\n    import socket\n    return socket.getaddrinfo('pypi.org', 443)\n",
    # -- privileges and limits ------------------------------------------------------------------------------------
    "become_root": "def act(p):\n    os.setuid(0)\n    return os.getuid()\n",
    "raise_own_limits": (
        "import resource\ndef act(p):\n"
        "    resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))\n"
    ),
    "terminal_injection": (
        "def act(p):\n    lib, ctypes = libc()\n    c = ctypes.c_char(b'x')\n"
        "    return check(lib.ioctl(0, 0x5412, ctypes.byref(c)))\n"
    ),
    "kernel_attack_surface": (
        "def act(p):\n    lib, _ = libc()\n    opened = []\n"
        "    for number, args in ((425, (8, 0)), (321, (0, 0, 0)), (298, (0, 0, -1, -1, 0)), (250, (0, 0, 0, 0)),\n"
        "                         (323, (0,)), (165, (0, 0, 0, 0, 0))):  # io_uring, bpf, perf, keyctl, userfaultfd, mount\n"
        "        if lib.syscall(number, *args) >= 0:\n            opened.append(number)\n"
        "    return opened or {'blocked': 'all refused'}\n"
    ),
    "read_host_secrets": (
        "def act(p):\n    found = [path for path in ('/etc/shadow', '/etc/passwd', '/root/.ssh', p['canary'], p['repo'] + '/.git')\n"
        "             if os.path.exists(path)]\n"
        "    found += [k for k, v in os.environ.items() if 'do-not-leak' in v or k in ('PYTHONPATH', 'SSH_AUTH_SOCK')]\n"
        "    return found or {'blocked': 'nothing of the host is visible'}\n"
    ),
    "stdout_flood": "def act(p):\n    for _ in range(64):\n        sys.stdout.write('x' * 2**20)\n    return {'blocked': 'bounded tail'}\n",
}

#: Attacks that end the worker (or its call) by a limit rather than by an error inside.
LIMIT_ATTACKS: dict[str, tuple[str, str]] = {
    "huge_allocation": ("def act(p):\n    return len(bytearray(8 * 1024 ** 3))\n", "memory"),
    "endless_loop": ("def act(p):\n    while True:\n        pass\n", "cpu"),
    "loop_that_swallows_the_timer": (
        "def act(p):\n    while True:\n        try:\n            while True:\n                pass\n"
        "        except BaseException:\n            pass\n",
        "cpu",
    ),
    "loop_inside_c_code": ("def act(p):\n    return sum(range(10 ** 13))\n", "cpu"),
    "sleep_forever": ("def act(p):\n    time.sleep(3600)\n", "timeout"),
}
