"""The contract: what a game is and says, and the plain files every layer reads.

The bottom layer.  A game's declaration and play (`declaration`, `protocol`), its options,
phases, choices, deck, kit, hints and console commands; its phrase catalogues and own files;
table scripts (`script`), tag maps and the bounded TOML reader; one doctor `finding`.  Nothing
here touches a reader, a thread, a clock or a sound device, so a game may import all of it:
`kikimimi.game` is the face that gathers what an author needs.  May import only itself.
"""
