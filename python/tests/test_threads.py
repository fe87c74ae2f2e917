"""Calls from several threads at once (each thread has its own handle and workspace) and after fork."""
import multiprocessing
import threading

import numpy as np
import pytest

import hipreduce as hr


def test_threads_agree_with_one_thread():
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((64, 1000 + 37 * i)).astype(np.float32) for i in range(8)]
    big = rng.standard_normal(1 << 20).astype(np.float32)  # large enough to use the cpu device's pool
    expected = [(hr.sum(a), hr.sum(a, axis=0), hr.argmax(a, axis=1), hr.norm(big)) for a in arrays]
    failures = []
    barrier = threading.Barrier(8)

    def work(i):
        barrier.wait()
        for _ in range(20):
            got = (hr.sum(arrays[i]), hr.sum(arrays[i], axis=0), hr.argmax(arrays[i], axis=1), hr.norm(big))
            if not (got[0].tobytes() == expected[i][0].tobytes() and np.array_equal(got[1], expected[i][1])
                    and np.array_equal(got[2], expected[i][2]) and got[3] == expected[i][3]):
                failures.append(i)
                return

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert failures == []


def test_threads_own_cpu_thread_counts():
    x = np.random.default_rng(1).standard_normal(1 << 21).astype(np.float32)
    ref = hr.sum(x)
    out = []

    def work(n):
        hr.set_cpu_threads(n)  # this thread's handle only; the bits do not depend on it
        out.append(hr.sum(x).tobytes())

    threads = [threading.Thread(target=work, args=(n,)) for n in (1, 2, 3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert out == [ref.tobytes()] * 3


def _child_sum(queue):
    x = np.arange(1 << 20, dtype=np.float64)
    queue.put(float(hr.sum(x)))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform")
def test_fork_after_use():
    # The parent's handle started worker threads; the child has none and must make its own handle.
    x = np.arange(1 << 20, dtype=np.float64)
    hr.set_cpu_threads(2)
    assert hr.sum(x) == (1 << 20) * ((1 << 20) - 1) / 2
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    p = ctx.Process(target=_child_sum, args=(queue,))
    p.start()
    p.join(timeout=60)
    alive = p.is_alive()
    if alive:
        p.kill()
    assert not alive and p.exitcode == 0
    assert queue.get(timeout=5) == (1 << 20) * ((1 << 20) - 1) / 2
