"""Screenshots of terminal programs (the chat client, Neovim) as a person sees them.

The program runs in tmux, a real terminal on a pseudo-terminal of a fixed size, on a tmux
server of its own. ``save`` captures the pane with its colours (``capture-pane -e``),
draws it with rich's SVG export, and, where Chromium is installed, renders that to a PNG
beside it in ``docs/screenshots/``, where the VS Code tests put theirs.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def tmux_available() -> bool:
    return shutil.which("tmux") is not None


class TmuxScreen:
    """``command`` running in a ``width`` x ``height`` terminal, with ``env`` as its
    environment (the tmux server is started with it, and passes it on)."""

    def __init__(self, command: list[str], cwd: Path, env: dict[str, str],
                 width: int = 100, height: int = 32) -> None:
        self.width, self.height = width, height
        self.socket = f"cs-screens-{uuid.uuid4().hex[:10]}"
        env = {**env, "TERM": "xterm-256color"}
        env.pop("TMUX", None)
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", str(width),
                   "-y", str(height), "-c", str(cwd), " ".join(_quote(c) for c in command), env=env)
        self._tmux("set-option", "-t", "main", "status", "off")
        self._tmux("set-option", "-t", "main", "remain-on-exit", "on")

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True,
                              env=env, timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args[:3])}: {done.stderr.strip()}")
        return done.stdout

    def text(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "main")

    def wait_for(self, fragment: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.text()
            if fragment in shown:
                return shown
            if time.monotonic() > deadline:
                raise AssertionError(f"{fragment!r} not on the screen after {timeout} s:\n{shown}")
            time.sleep(0.1)

    def type(self, text: str, enter: bool = True) -> None:
        self._tmux("send-keys", "-t", "main", "-l", text)
        if enter:
            self._tmux("send-keys", "-t", "main", "Enter")

    def keys(self, *names: str) -> None:
        self._tmux("send-keys", "-t", "main", *names)

    def save(self, name: str, title: str, background: tuple[int, int, int] | None = None) -> Path:
        """The screen as it is now: ``docs/screenshots/<name>.svg``, and ``<name>.png`` where
        Chromium can draw it; the path of the PNG, else of the SVG. ``background`` is the
        colour of cells the program left at the terminal's default (a program that paints
        its own, as Neovim does, clears some lines with the default and some with its own)."""
        # -N keeps each line's trailing blanks: a program that paints its background (Neovim
        # with termguicolors) paints them too.
        ansi = self._tmux("capture-pane", "-p", "-e", "-N", "-t", "main")
        svg = render_svg(ansi, self.width, self.height, title, background)
        SHOTS.mkdir(parents=True, exist_ok=True)
        svg_path = SHOTS / f"{name}.svg"
        svg_path.write_text(svg)
        png_path = SHOTS / f"{name}.png"
        return png_path if svg_to_png(svg_path, png_path, self.width, self.height) else svg_path

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=30)


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def render_svg(ansi: str, width: int, height: int, title: str,
               background: tuple[int, int, int] | None = None) -> str:
    from rich.console import Console
    from rich.terminal_theme import SVG_EXPORT_THEME, TerminalTheme
    from rich.text import Text

    lines = ansi.split("\n")[:height]
    lines += [""] * (height - len(lines))
    console = Console(record=True, width=width, force_terminal=True, color_system="truecolor",
                      file=io.StringIO(), legacy_windows=False)
    for line in lines:
        # A line as tmux drew it, styles carried within it (capture-pane -e resets at ends).
        console.print(Text.from_ansi(line, no_wrap=True, end=""), overflow="crop", no_wrap=True,
                      crop=True, soft_wrap=False)
    theme = SVG_EXPORT_THEME
    if background is not None:
        colours = [(c.red, c.green, c.blue) for c in (theme.ansi_colors[i] for i in range(16))]
        foreground = theme.foreground_color
        theme = TerminalTheme(background, (foreground.red, foreground.green, foreground.blue),
                              colours[:8], colours[8:])
    return console.export_svg(title=title, theme=theme)  # rich escapes the title


def svg_to_png(svg: Path, png: Path, columns: int, rows: int) -> bool:
    """Render with headless Chromium; False (and no PNG) where it is not installed."""
    if not Path(CHROMIUM).exists():
        return False
    page = svg.with_suffix(".html")
    page.write_text(f"<html><body style='margin:0;background:#fff'><img src='{svg.name}' "
                    f"style='width:{columns * 9 + 140}px'></body></html>")
    try:
        done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                               "--hide-scrollbars", f"--screenshot={png}",
                               f"--window-size={columns * 9 + 140},{rows * 21 + 50}", page.as_uri()],
                              capture_output=True, timeout=60)
    finally:
        page.unlink(missing_ok=True)
    return done.returncode == 0 and png.exists()
