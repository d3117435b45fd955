"""A test per job of the catalogue, each through a table script."""
from __future__ import annotations

import sys

import pytest

from kikimimi.contract.protocol import visible_to
from kikimimi_games.mafia42.jobs import CatalogueError, default_catalogue

from .table import Table, of, over, power, said

C = "citizen"


def deaths(log):
    return [e["seat"] for e in of(log, "death")]


def job_mafia():
    log = Table(["mafia", "mafia", C, C, C, C]).hand(1, "seat:3").hand(2, "seat:4").next().run()
    assert said(log, "mafia-aim", "seat:1")[-1]["params"]["seat"] == 4  # the team hears the joint target
    assert deaths(log) == [4]  # the latest choice of the team counts


def job_spy():
    t = Table(["mafia", "spy", C, C, C]).hand(2, "seat:3")
    log = t.run()
    assert said(log, "job-of", "seat:2")[-1]["params"] == {"seat": 3, "job": "job:citizen"}
    log = t.hand(2, "seat:1").run()
    assert said(log, "job-of", "seat:2")[-1]["params"]["seat"] == 3  # one look a night
    log = Table(["mafia", "spy", C, C, C]).hand(2, "seat:1").hand(2, "seat:4").run()
    assert said(log, "contact-made", "seat:2") and said(log, "helper-joined", "seat:1")
    assert said(log, "job-of", "seat:2")[-1]["params"]["seat"] == 4  # found a mafioso: one more look


def job_beastman():
    log = Table(["mafia", "beastman", C, C, C]).night({2: 3, 1: 3}).run()
    assert deaths(log) == [3] and said(log, "contact-made", "seat:2")  # the mafia shot his mark: tamed
    log = Table(["mafia", "beastman", C, C, C]).night({1: 2}).run()
    assert deaths(log) == [] and said(log, "contact-made", "seat:2")  # the shot cannot kill him
    t = Table(["mafia", "beastman", C, C, C, C]).night({1: 2})
    t.day({s: 1 for s in (2, 3, 4, 5, 6)}, yes=(2, 3, 4, 5, 6))
    log = t.night({2: 4}).run()
    assert deaths(log) == [1, 4]  # last of the mafia, the tamed beastman kills


def job_madam():
    t = Table(["mafia", "madam", "police", C, C]).night()
    t.day({2: 3, 1: 3, 4: 5}, no=(1, 2, 4, 5))  # she votes for the police
    log = t.night({3: 1}).run()
    assert said(log, "you-seduced", "seat:3") and not said(log, "police-mafia", "seat:3")
    t = Table(["mafia", "madam", C, C, C]).night().day({2: 1})
    assert said(t.run(), "contact-made", "seat:2")


def job_thief():
    t = Table(["mafia", "thief", "police", C, C]).night()
    t.day({2: 3, 1: 4, 4: 5})  # he votes for the police
    log = t.night({2: 1}).run()
    assert said(log, "robbed", "seat:2")[0]["params"]["job"] == "job:police"
    assert said(log, "police-mafia", "seat:2")[0]["params"] == {"seat": 1}
    assert said(Table(["mafia", "thief", C, C, C]).night().day({2: 1}).run(), "contact-made", "seat:2")


def job_witch():
    log = Table(["mafia", "witch", "police", "doctor", C]).night({2: 4, 3: 1, 4: 5, 1: 5}).run()
    assert said(log, "cursed", "seat:2") and deaths(log) == [5]  # the frog doctor could not protect
    log = Table(["mafia", "witch", "police", C, C]).night({2: 1, 3: 1}).run()
    assert said(log, "police-not-mafia", "seat:3")  # a frog reads "not mafia"
    assert said(log, "contact-made", "seat:2")  # cursing a mafioso is contact


def job_scientist():
    t = Table(["mafia", "scientist", C, C, C]).night()
    t.day({s: 2 for s in range(1, 6)}, yes=(1, 3, 4, 5))
    log = t.run()
    assert deaths(log) == [2] and said(log, "contact-made", "seat:2")
    log = t.night().run()
    assert [e["seat"] for e in of(log, "revived")] == [2] and said(log, "revived")


def job_police():
    log = Table(["mafia", "police", "spy", C, C]).night({2: 1}).run()
    assert said(log, "police-mafia", "seat:2")[0]["params"] == {"seat": 1}
    log = Table(["mafia", "police", "spy", C, C]).night({2: 3}).run()
    assert said(log, "police-not-mafia", "seat:2")  # a helper reads "not mafia"


def job_doctor():
    log = Table(["mafia", "doctor", C, C]).night({1: 3, 2: 3}).run()
    assert deaths(log) == [] and said(log, "saved")[0]["params"] == {"seat": 3}


def job_politician():
    t = Table(["mafia", "politician", C, C, C]).night()
    t.day({2: 1, 3: 4, 4: 4})
    log = t.run()
    # read at its real weight: the table's count and the accusation agree
    assert of(log, "tally")[-1]["totals"] == {"1": 2, "4": 2}
    assert of(log, "accused")[-1]["seat"] is None  # a tie
    log = Table(["mafia", "politician", C, C]).night().day({s: 2 for s in (1, 2, 3, 4)}, yes=(1, 3, 4)).run()
    assert said(log, "politician-survives") and 2 not in deaths(log)


def job_lover():
    log = Table(["mafia", "lover", "lover", C, C]).night({1: 3}).run()
    assert deaths(log) == [2] and said(log, "lover-died-for-you", "seat:3")
    assert said(log, "partners", "seat:2")[0]["params"]["seats"] == [3]


def job_medium():
    t = Table(["mafia", "medium", C, C, C]).night({1: 3})
    log = t.day().night({2: 3}).run()
    assert said(log, "job-of", "seat:2")[0]["params"] == {"seat": 3, "job": "job:citizen"}


def job_reporter():
    log = Table(["mafia", "reporter", C, C, C]).night({2: 1}).run()
    assert not said(log, "scoop")  # not on night 1
    log = Table(["mafia", "reporter", C, C, C]).night().day().night({2: 1}).day().night({2: 3}).run()
    assert [e["params"] for e in said(log, "scoop", "table")] == [{"seat": 1, "job": "job:mafia"}]


def job_prophet():
    t = Table(["mafia", "prophet", C, C, C, C])
    for victim in (3, 4, 5):
        t.night({1: victim}).day()
    assert over(t.night({1: 6}).run())["reason"] == "citizens-immediate-prophet"


def job_judge():
    t = Table(["mafia", "judge", C, C, C, C]).night()
    t.day({s: 3 for s in range(1, 7)}, yes=(1, 4, 5, 6), no=(2,))
    t.night().day({s: 1 for s in range(1, 7)}, yes=(2,), no=(3, 4, 5, 6))
    log = t.run()
    assert [e["executed"] for e in of(log, "approval")] == [False, True]  # revealed, he decides alone
    assert over(log)["winner"] == "citizens"


def job_mercenary():
    log = Table(["mafia", "mercenary", C, C, C]).night({1: 3}).day().night({2: 1}).run()
    assert said(log, "client-killed", "seat:2") and deaths(log) == [3, 1]
    assert over(log)["winner"] == "citizens"


def job_society():
    log = Table(["mafia", "society", "society", C, C]).night({2: 4}).run()
    assert not said(log, "found-moon")
    log = Table(["mafia", "society", "society", C, C]).night({2: 3}).run()
    assert said(log, "found-moon", "seat:2") and said(log, "society-moon", "seat:3")


def job_gangster():
    t = Table(["mafia", "gangster", C, C, C]).night({2: 3}).next().next().hand(3, "seat:1")
    assert said(t.run(), "threatened", "seat:3")
    log = Table(["mafia", "gangster", C, C, C]).night({2: 3}).day({1: 4, 2: 4, 4: 4, 5: 4}, yes=(3,)).run()
    assert of(log, "approval")[-1] == {**of(log, "approval")[-1], "yes": 0, "no": 4}  # threatened: "no"


def job_magician():
    log = Table(["mafia", "magician", C, C, C]).night({2: 3, 1: 2}).run()
    assert deaths(log) == [3] and said(log, "magic-fired", "seat:2")


def job_clergy():
    t = Table(["mafia", "clergy", "doctor", C, C]).night({1: 3})
    log = t.day().night({2: 3}).run()
    assert [e["seat"] for e in of(log, "revived")] == [3]
    log = t.hand(3, "cmd:hint").run()
    assert said(log, "you-play-as", "seat:3")[-1]["params"] == {"job": "job:citizen"}  # back without the job


def job_citizen():
    log = Table(["mafia", C, C, C]).night({2: 3}).run()
    assert deaths(log) == [] and said(log, "night-choice", "seat:2")  # cover: the same answer as anyone


def job_cult_leader():
    t = Table(["mafia", "cult-leader", "clergy"] + [C] * 6, mode="cult")
    log = t.night({2: 4}).run()
    assert said(log, "converted-job", "seat:2") and said(log, "you-converted", "seat:4")
    assert power(log)["cult"] == {"heads": 2, "votes": 2}
    log = Table(["mafia", "cult-leader", "clergy"] + [C] * 6, mode="cult").night({2: 3}).run()
    assert said(log, "convert-failed", "seat:2")
    log = Table(["mafia", "cult-leader", "clergy"] + [C] * 6, mode="cult").night().day().night({2: 4}).run()
    assert not said(log, "converted-job")  # even nights: no conversion


def job_fanatic():
    t = Table(["mafia", "cult-leader", "fanatic"] + [C] * 6, mode="cult")
    log = t.run()
    assert said(log, "partners", "seat:3")[0]["params"]["seats"] == [2]
    assert not [e for e in log if e["type"] == "partners" and visible_to(e, 2)]  # the leader is not told
    t.night({2: 3}).day({s: 2 for s in range(1, 10)}, yes=(1, 3, 4, 5, 6, 7, 8, 9))
    log = t.night().day().night({3: 5}).run()
    assert said(log, "converted-job", "seat:3")  # converted, he took over the converting


JOB_TESTS = {name[4:].replace("_", "-"): fn for name, fn in vars(sys.modules[__name__]).items()
             if name.startswith("job_")}


def test_every_catalogue_job_has_a_test():
    assert set(JOB_TESTS) == set(default_catalogue().jobs)


@pytest.mark.parametrize("job", sorted(JOB_TESTS))
def test_job(job):
    JOB_TESTS[job]()


def test_a_table_can_change_a_job_or_add_one_as_data():
    log = Table(["mafia", "doctor", C, C], job_changes={"doctor": {"effect": "check-mafia"}}).night({2: 1}).run()
    assert said(log, "police-mafia", "seat:2")
    with pytest.raises(CatalogueError):
        default_catalogue().changed({"nurse": {"team": "citizens", "acts": "night", "effect": "fly"}})
    assert default_catalogue().changed({"nurse": {"team": "citizens", "acts": "night",
                                                  "effect": "protect"}})["nurse"].effect == "protect"
