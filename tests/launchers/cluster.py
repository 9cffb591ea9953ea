"""cluster.py - a private Slurm cluster on this machine, for tests/launchers.

    with Cluster(folder) as c:       # munged, slurmctld, slurmd started
        c.env                        # SLURM_CONF=... for srun, sbatch, scancel
        c.run(["srun", "-n", "4", ...])

Everything lives in FOLDER: munged with a key made for this run and its own
socket, and slurmctld and one slurmd (node "cwnode", 8 CPUs declared,
config_overrides) on 127.0.0.1 with ports chosen free, all in the
foreground. Leaving the block (also on an exception) stops each daemon by
the PID this module started, SIGTERM then SIGKILL. No system service, file
or port outside FOLDER is touched.

With nodes=N (N >= 2) the cluster has N nodes cwnode1..N, each slurmd on a
host of its own (namespaces.py: a network namespace, hostname and address
of the test's own, the file system shared), slurmctld on a hub host cwctl;
c.client is the prefix that runs a command on cwctl (srun, scancel, ...),
which c.run adds.

ABSENT names what is missing when Slurm or munge is not installed.
"""
import os
import shutil
import signal
import socket
import subprocess
import time

import namespaces
from started import Started

NODE = "cwnode"
CPUS = 8

SLURM_CONF = """\
ClusterName=cwtest
SlurmctldHost={host}({addr})
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
AuthType=auth/munge
AuthInfo=socket={dir}/munge/socket
CredType=cred/munge
SlurmUser={user}
SlurmdUser=root
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool/%n
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.%n.pid
SlurmctldLogFile={dir}/log/slurmctld.log
SlurmdLogFile={dir}/log/slurmd.%n.log
ProctrackType={proctrack}
TaskPlugin=task/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
InactiveLimit=0
KillWait=5
{nodes}PartitionName=cw Nodes={names} Default=YES MaxTime=10 State=UP
"""
NODE_LINE = "NodeName={node} NodeAddr={addr} NodeHostname={host} CPUs={cpus} RealMemory=1000\n"


def absent():
    """Why this machine cannot run the cluster, as a sentence, or None."""
    path = os.environ.get("PATH", "") + ":/usr/sbin"
    tools = [t for t in ("munged", "slurmctld", "slurmd", "srun", "sbatch", "scancel", "sinfo")
             if not shutil.which(t, path=path)]
    if tools:
        return "not installed: %s (apt-get install slurmctld slurmd slurm-client munge)" % \
            " ".join(tools)
    if os.geteuid() != 0:
        return "slurmd must run as root to start jobs"
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster(Started):
    def __init__(self, folder, nodes=1, proctrack="proctrack/linuxproc"):
        self.dir = os.path.abspath(folder)
        self.proctrack = proctrack
        self.procs = {}
        self.nodes = [NODE] if nodes == 1 else ["%s%d" % (NODE, k) for k in range(1, nodes + 1)]
        self.net = None if nodes == 1 else namespaces.Network(
            os.path.join(self.dir, "net"), ["cwctl"] + self.nodes)
        self.client = []
        self.env = dict(os.environ, SLURM_CONF=os.path.join(self.dir, "slurm.conf"))
        self.env["PATH"] = self.env.get("PATH", "") + ":/usr/sbin"

    def daemon(self, name, argv, host=None):
        log = open(os.path.join(self.dir, "log", name + ".out"), "w")
        enter = self.net.enter(host) if self.net and host else []
        self.procs[name] = subprocess.Popen(
            enter + [shutil.which(argv[0], path=self.env["PATH"])] + argv[1:], env=self.env,
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def start(self):
        shutil.rmtree(self.dir, ignore_errors=True)
        for sub in ["munge", "state", "log"] + ["spool/" + n for n in self.nodes]:
            os.makedirs(os.path.join(self.dir, sub))
        if self.net:
            self.net.start()
            self.client = self.net.enter("cwctl")
        munge = os.path.join(self.dir, "munge")
        os.chmod(munge, 0o711)  # munged wants its socket's folder searchable
        with open(os.path.join(munge, "key"), "wb") as f:
            f.write(os.urandom(1024))
        os.chmod(os.path.join(munge, "key"), 0o600)
        here = socket.gethostname().split(".")[0]
        host = (lambda n: n) if self.net else (lambda n: here)
        addr = self.net.address if self.net else (lambda n: "127.0.0.1")
        ctld = "cwctl" if self.net else here
        with open(self.env["SLURM_CONF"], "w") as f:
            f.write(SLURM_CONF.format(
                host=ctld, addr=addr(ctld), dir=self.dir, ctld_port=free_port(),
                slurmd_port=free_port(), user="root", proctrack=self.proctrack,
                names=",".join(self.nodes), nodes="".join(NODE_LINE.format(
                    node=n, addr=addr(n), host=host(n), cpus=CPUS // len(self.nodes))
                    for n in self.nodes)))
        self.daemon("munged", ["munged", "-F", "--force", "--key-file=%s/key" % munge,
                               "--socket=%s/socket" % munge, "--pid-file=%s/pid" % munge,
                               "--log-file=%s/log" % munge, "--seed-file=%s/seed" % munge])
        self.wait_for(lambda: os.path.exists(os.path.join(munge, "socket")), "munged's socket")
        self.daemon("slurmctld", ["slurmctld", "-D", "-f", self.env["SLURM_CONF"]], "cwctl")
        for n in self.nodes:
            self.daemon("slurmd " + n, ["slurmd", "-D", "-f", self.env["SLURM_CONF"], "-N", n], n)
        self.wait_for(self.nodes_idle, "nodes %s idle" % ",".join(self.nodes))

    def nodes_idle(self):
        out = self.run(["sinfo", "-h", "-N", "-o", "%T"]).stdout
        return out.split() == ["idle"] * len(self.nodes)

    def wait_for(self, ready, what, timeout=30):
        deadline = time.monotonic() + timeout
        while not ready():
            dead = [n for n, p in self.procs.items() if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                raise RuntimeError("Slurm did not start (%s; %s): %s" % (
                    what, "exited: " + ", ".join(dead) if dead else "timed out",
                    self.logs()))
            time.sleep(0.1)

    def logs(self):
        text = []
        for name in sorted(os.listdir(os.path.join(self.dir, "log"))):
            with open(os.path.join(self.dir, "log", name), errors="replace") as f:
                text.append("== %s\n%s" % (name, "".join(f.readlines()[-10:])))
        return "\n".join(text)

    def stop(self):
        """Each daemon this object started, by its PID: SIGTERM, then
        SIGKILL after 10 s. The slurmds first, munged last; then the
        namespaces. A job step that never ended (a failed case) keeps its
        slurmstepd, which outlives slurmd: it is found by the slurm.conf
        of this cluster in its environment, and killed by its PID."""
        for pid in self.step_daemons():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for name in reversed(list(self.procs)):
            p = self.procs.pop(name)
            if p.poll() is not None:
                continue
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self.net:
            self.net.stop()

    def step_daemons(self):
        """PIDs of the slurmstepd processes of this cluster's jobs."""
        mine = ("SLURM_CONF=" + os.path.join(self.dir, "")).encode()
        pids = []
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/comm", "rb") as f:
                    if f.read().strip() != b"slurmstepd":
                        continue
                with open(f"/proc/{entry}/environ", "rb") as f:
                    if any(v.startswith(mine) for v in f.read().split(b"\0")):
                        pids.append(int(entry))
            except (OSError, ValueError):
                continue
        return pids

    def run(self, argv, **kw):
        """A Slurm command, on the hub host when there are several nodes."""
        return subprocess.run(self.client + argv, env=kw.pop("env", self.env),
                              capture_output=True, text=True, **kw)

    def job_done(self, job):
        """Whether job JOB has left the queue."""
        return not self.run(["squeue", "-h", "-j", str(job)]).stdout.strip()
