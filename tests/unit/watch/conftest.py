"""Real files and a real git, isolated from the developer's setup."""

from tests.git_repo import git, isolated_git, repo  # noqa: F401
