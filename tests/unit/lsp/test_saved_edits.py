"""When an edit the editor applied but left unsaved is written to the disk by the sidecar."""

from __future__ import annotations

from sidecar.lsp.saved_edits import Before, landing

OLD, NEW = "a = 1\n", "a = 2\n"


def test_a_saved_edit_needs_nothing() -> None:
    assert landing(Before(OLD, OLD), NEW, NEW, NEW) == "saved"


def test_an_unsaved_edit_is_written_when_nothing_else_changed() -> None:
    assert landing(Before(OLD, None), OLD, None, NEW) == "written"  # no buffer reported
    assert landing(Before(OLD, OLD), OLD, NEW, NEW) == "written"  # the buffer holds the edit
    assert landing(Before(OLD, OLD), OLD, OLD, NEW) == "written"  # its didChange not yet here
    assert landing(Before(None, None), "", NEW, NEW) == "written"  # a new file, created empty
    assert landing(Before(None, None), None, None, NEW) == "written"


def test_unsaved_text_the_edit_was_made_from_is_saved_with_it() -> None:
    typed = "a = 1\nb = 0\n"  # the user's unsaved line; the edit was computed from it
    assert landing(Before(OLD, typed), OLD, "a = 2\nb = 0\n", "a = 2\nb = 0\n") == "written"


def test_someone_elses_change_is_never_clobbered() -> None:
    assert landing(Before(OLD, OLD), "a = 9\n", NEW, NEW) == "left"  # the disk changed
    assert landing(Before(OLD, OLD), OLD, "a = 2\nmore typing\n", NEW) == "left"  # the buffer did
