#!/usr/bin/env python3
"""APScheduler as the peer of `ejctl run` in the lateness section of benches/runtime.rs.

    python3 apscheduler_lateness.py SCRIPT RECORD K T

Schedules K×T jobs (`job{j}` item `i`, j < K, i < T) that each fire every second and each start
SCRIPT RECORD '{}' (the bench's record script, the arguments the ideal spawn loop passes) with
`subprocess.Popen`, without waiting for it, and with the environment the ejctl runs give the
script: `EJCTL_FIRE_TIME` (the scheduled instant, milliseconds since the epoch),
`EJCTL_SHARDING_ITEM`, `EJCTL_JOB_NAME` and `EJCTL_TASK_ID` (whose last `@-@` part, here
`apscheduler`, the script records as the instance). Runs until SIGTERM, then shuts the scheduler
down and exits 0. The bench reads RECORD and measures the same fires as for ejctl.

Choices, so that the scheduler is measured as a user would run it, at its best:

* CronTrigger(second='*'), not IntervalTrigger: it is the same schedule as ejctl's
  `* * * * * ?`, a calendar rule evaluated on the wall clock, and what a cron job ported to
  APScheduler uses. (An IntervalTrigger with a start_date on a whole second fires on the same
  instants, with a cheaper next-time computation; it is not the like-for-like schedule.)
* BlockingScheduler (the scheduler's loop on the main thread, nothing else in the process) with
  a ThreadPoolExecutor of K×T workers, so that no fire waits for a free thread; the pool's threads
  are started by the first fires, before the measured ones (the bench skips two complete fires).
* coalesce off, misfire_grace_time 60 s (a late run still runs and counts as late, it is not
  dropped), max_instances 10 (a job's Popen returns at once, so instances never pile up).
* The scheduled instant comes from APScheduler itself: the executor calls the job from
  `apscheduler.executors.base.run_job`, whose loop variable `run_time` is the instant the trigger
  was due for, read from the caller's frame (3.x passes no run time to the job). Should that ever
  be missing, the whole second before now is used and a line says so on stderr.
* UTC as the scheduler's time zone: whole seconds are the same instants in any zone, and UTC
  spares the local-zone lookup.

What shows in its figures, as any user of APScheduler 3.x gets it: the scheduler's loop
(`BaseScheduler._process_jobs`) computes its next wait from the clock read before it submitted the
due jobs and computed their next fire times, so with many jobs due at once each fire wakes late by
about the time the previous one's submissions took; the jobs' threads and the loop share the GIL.
"""

import datetime
import os
import signal
import subprocess
import sys

import apscheduler
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger

EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
MS = datetime.timedelta(milliseconds=1)

_warned = False


def scheduled_ms():
    """The instant the running job was scheduled for, in milliseconds since the epoch."""
    global _warned
    run_time = sys._getframe(2).f_locals.get("run_time")
    if isinstance(run_time, datetime.datetime):
        return (run_time - EPOCH) // MS
    if not _warned:
        _warned = True
        print("apscheduler peer: no run_time in run_job's frame; using the whole second before now",
              file=sys.stderr, flush=True)
    now = datetime.datetime.now(datetime.timezone.utc)
    return (now - EPOCH) // datetime.timedelta(seconds=1) * 1000


def main():
    script, record, k, t = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    argv = [script, record, "{}"]
    base_env = dict(os.environ)
    # `process_group` is Python 3.11's; `start_new_session` (setsid) also makes a new group.
    group = {"process_group": 0} if sys.version_info >= (3, 11) else {"start_new_session": True}

    def fire(job, item):
        env = dict(base_env)
        env["EJCTL_FIRE_TIME"] = str(scheduled_ms())
        env["EJCTL_SHARDING_ITEM"] = str(item)
        env["EJCTL_JOB_NAME"] = job
        env["EJCTL_TASK_ID"] = f"{job}@-@{item}@-@READY@-@127.0.0.1@-@apscheduler"
        # Not waited for: the job returns once the script has started (subprocess reaps finished
        # children on later Popen calls). A process group of its own, as the floor's scripts.
        subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, **group)

    scheduler = BlockingScheduler(
        executors={"default": ThreadPoolExecutor(max_workers=k * t)},
        job_defaults={"coalesce": False, "misfire_grace_time": 60, "max_instances": 10},
        timezone="UTC",
    )
    for j in range(k):
        for item in range(t):
            scheduler.add_job(fire, CronTrigger(second="*", timezone="UTC"), args=(f"job{j}", item),
                              id=f"job{j}-{item}")

    signal.signal(signal.SIGTERM, lambda *_: scheduler.shutdown(wait=False))
    print(f"apscheduler {apscheduler.__version__} (Python {sys.version.split()[0]}): {k * t} jobs "
          f"at second='*', {k * t} threads", file=sys.stderr, flush=True)
    scheduler.start()


if __name__ == "__main__":
    main()
