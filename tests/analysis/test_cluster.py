"""--cluster: simulate, compare and check on Dask distributed give the numbers of --workers; a worker killed
mid-run loses no game and counts none twice."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from typing import Any

import distributed  # the dev extra brings the dask extra: these tests always run
import pytest

from crewkit.analysis.pool import ClusterUnavailable, require_distributed


def _comparable(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second", "workers")}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40)
    try:
        yield lc
    finally:
        lc.close()


def test_simulate_on_a_scheduler_address_matches_workers(cluster: Any) -> None:
    from crewkit.analysis.simulate import simulate

    kw = dict(ruleset="crew", mission="planet-nine/01", players=4, games=60, bot="rules", seed="dask")
    local = simulate(**kw, workers=1)  # type: ignore[arg-type]
    remote = simulate(**kw, cluster=cluster.scheduler_address)  # type: ignore[arg-type]
    assert _comparable(remote.to_json()) == _comparable(local.to_json())
    assert remote.workers == 2  # the scheduler's workers


def test_compare_and_check_on_the_cluster_match_workers(cluster: Any) -> None:
    from crewkit.analysis.check import check_mission
    from crewkit.analysis.compare import Variant, compare

    variants = [Variant("rules", "crew", "planet-nine/02", 4, "rules"),
                Variant("random", "crew", "planet-nine/02", 4, "random")]
    a = compare(variants, 30, "dask", solver_games=5, precision=0.2)
    b = compare(variants, 30, "dask", solver_games=5, precision=0.2, cluster=cluster.scheduler_address)
    strip = ("seconds", "workers")
    assert {k: v for k, v in a.to_json().items() if k not in strip} == {
        k: v for k, v in b.to_json().items() if k not in strip}
    path = "missions/planet-nine/01-first-contact.yaml"
    c1 = check_mission(path, games=40, players=[3, 4], bot="rules", seed="dask", solver_games=4)
    c2 = check_mission(path, games=40, players=[3, 4], bot="rules", seed="dask", solver_games=4,
                       cluster=cluster.scheduler_address)
    assert c1.to_json() == c2.to_json()


def test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice(cluster: Any) -> None:
    from crewkit.analysis.simulate import simulate

    client = distributed.Client(cluster.scheduler_address)
    try:
        pids = list(client.run(os.getpid).values())
    finally:
        client.close()
    assert len(pids) == 2
    killed: list[int] = []

    def status(st: Any) -> None:
        if not killed and st.done >= 24:  # results are coming in: more chunks are running on both workers
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])

    kw = dict(ruleset="crew", mission="planet-nine/01", players=4, games=240, bot="rules", seed="kill")
    remote = simulate(**kw, cluster=cluster.scheduler_address, status=status)  # type: ignore[arg-type]
    assert killed, "the run ended before a worker could be killed"
    local = simulate(**kw, workers=1)  # type: ignore[arg-type]
    assert remote.games == 240
    assert _comparable(remote.to_json()) == _comparable(local.to_json())


def test_cluster_local_starts_its_own_cluster() -> None:
    """The same games as without a cluster; and quietly while another program holds Dask's usual port (8787:
    Dask warned on stderr that it was in use)."""
    import socket
    import warnings

    from crewkit.analysis.simulate import simulate

    kw = dict(ruleset="crew", mission="planet-nine/01", players=4, games=30, bot="rules", seed="lc")
    with socket.socket() as taken, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.suppress(OSError):  # already taken by something else: as good
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        on_cluster = simulate(**kw, cluster="local", workers=2).to_json()  # type: ignore[arg-type]
    assert not [str(w.message) for w in caught if "8787" in str(w.message)]
    assert _comparable(on_cluster) == _comparable(simulate(**kw, workers=1).to_json())  # type: ignore[arg-type]


def test_require_distributed_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real = builtins.__import__

    def no_dask(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "distributed" or name.startswith("distributed."):
            raise ImportError("no distributed")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(ClusterUnavailable, match=r'pip install "crewkit\[dask\]"'):
        require_distributed()
