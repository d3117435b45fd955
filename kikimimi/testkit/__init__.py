"""The game author's test kit: what an author's own tests and `kikimimi check` lean on.

Public, documented in docs/authoring.md ("Your game's tests"), and small on purpose:
`script` builds a table script and runs it through the real engine; `roles_script` does the
same for a hidden-role game; `tables` writes a table file whose readers are all simulated;
`knowledge` and `capability` hold a bot to what its seat may know (replaying a seed with what
it cannot see changed, and walking what it can reach); `ear_spy` records what each ear bot
heard.  The emulated readers, pseudo-terminal links, kill timers, the watcher's adversaries
and the virtual sound cards are the project's own test harness: they live in `tests/support`,
outside the wheel.  Imports the live table and the designer's `sim`; nothing in the runtime
imports it.
"""
