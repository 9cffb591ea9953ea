"""started.py - what a thing the tests start and stop shares (cluster.py's
Slurm daemons, namespaces.py's hosts): a `with` block around start() and
stop(), where stop() also runs when start() fails half-way."""


class Started:
    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()
        return False
