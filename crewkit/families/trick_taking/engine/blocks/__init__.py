"""crewkit's own building blocks, one module each; each module registers its blocks by name when imported
(:mod:`crewkit.engine.registry` imports a family's modules when a rule set of that
family is first composed).

| block (name in a rule set) | module | kind | what it adds |
|---|---|---|---|
| ``setup`` | :mod:`.setup_steps` | phase | the mission's setup steps (questions, roles, tokens, task decisions) |
| ``draft`` | :mod:`.draft` | phase | tasks taken in turn (``take-task``) |
| ``tricks`` | :mod:`.tricks` | phase | cards played (``play``), tricks won by the kernel, trick-end hooks |
| ``choose-mission`` | :mod:`.rounds` | phase | the dealer picks a round's mission card and mode |
| ``chip-scoring`` | :mod:`.rounds` | cross-cutting | rounds settled in chips; the next round or the final standing |
| ``objectives`` | :mod:`.objectives` | cross-cutting | tasks won by their owners, token order, mission conditions, success |
| ``communication`` | :mod:`.communication` | cross-cutting | radio communication between tricks, or the in-trick signal |
| ``distress`` | :mod:`.distress` | cross-cutting | the distress signal and its ``distress-pass`` phase |
| ``gold-frame`` | :mod:`.gold_frame` | cross-cutting | one task handed on before the first trick |
| ``dummy-seat`` | :mod:`.dummy` | cross-cutting | JARVIS: a seat of face-up columns played by the commander |
| ``secret-tasks`` | :mod:`.secret_tasks` | cross-cutting | secret mission cards dealt to seats (Persian reading) |
| ``draws`` | :mod:`.draws` | cross-cutting | cards drawn from a neighbour after a given trick |
"""
