"""namespaces.py - a network of the test's own: one hub and N node
namespaces on this machine, for a Slurm cluster of several nodes
(cluster.py's nodes=N).

    with Network(folder, ["cwctl", "cwnode1", "cwnode2"]) as net:
        net.enter("cwnode1") + ["slurmd", ...]   # a command run on that host

Each host is a process that `unshare -n -u -m` started: its own network
namespace, hostname and mounts, the file system shared (a private bind of
FOLDER/hosts over /etc/hosts names every host). The first host holds a
bridge; each other is joined to it by a veth pair. Addresses are ADDRESSES
.1, .2, ... and exist only inside these namespaces. Leaving the block ends
each holder process by its PID, and with them the namespaces, the links
and the mounts: nothing outside the folder is left.
"""
import os
import shutil
import signal
import subprocess

from started import Started

ADDRESSES = "10.213.77."

HOLDER = """set -e
mount --make-rprivate /
mount --bind "$1" /etc/hosts
hostname "$2"
ip link set lo up
echo up
exec sleep 86400
"""


def absent():
    """Why this machine cannot make the namespaces, or None."""
    for tool in ("unshare", "nsenter", "ip"):
        if not shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin"):
            return "%s is not installed" % tool
    probe = subprocess.run(["unshare", "-n", "-u", "-m", "ip", "link", "add", "cwv0", "type",
                            "veth", "peer", "name", "cwv1"], capture_output=True, text=True)
    if probe.returncode != 0:
        return "no network namespaces with veth links here: %s" % probe.stderr.strip()
    return None


class Network(Started):
    def __init__(self, folder, hosts):
        self.dir, self.hosts, self.holders = os.path.abspath(folder), hosts, {}

    def address(self, host):
        return ADDRESSES + str(self.hosts.index(host) + 1)

    def enter(self, host):
        """The command prefix that runs a program on HOST."""
        return ["nsenter", "-t", str(self.holders[host].pid), "-n", "-u", "-m"]

    def ip(self, host, *args):
        subprocess.run(self.enter(host) + ["ip"] + list(args), check=True)

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        hosts = os.path.join(self.dir, "hosts")
        with open(hosts, "w") as f:
            f.write("127.0.0.1 localhost\n" + "".join(
                "%s %s\n" % (self.address(h), h) for h in self.hosts))
        for h in self.hosts:
            p = subprocess.Popen(["unshare", "-n", "-u", "-m", "sh", "-c", HOLDER, "holder",
                                  hosts, h], stdout=subprocess.PIPE, text=True)
            self.holders[h] = p
            if p.stdout.readline().strip() != "up":
                raise RuntimeError("the namespace of %s did not start" % h)
        hub = self.hosts[0]
        self.ip(hub, "link", "add", "cwbr0", "type", "bridge")
        self.ip(hub, "addr", "add", self.address(hub) + "/24", "dev", "cwbr0")
        self.ip(hub, "link", "set", "cwbr0", "up")
        for k, h in enumerate(self.hosts[1:], 1):
            near, far = "cwv%da" % k, "cwv%db" % k
            self.ip(hub, "link", "add", near, "type", "veth", "peer", "name", far)
            self.ip(hub, "link", "set", far, "netns", str(self.holders[h].pid))
            self.ip(hub, "link", "set", near, "master", "cwbr0", "up")
            self.ip(h, "addr", "add", self.address(h) + "/24", "dev", far)
            self.ip(h, "link", "set", far, "up")

    def stop(self):
        for h in reversed(list(self.holders)):
            p = self.holders.pop(h)
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
