"""GitHub as a PR source (PyGithub), and import of GitHub-REST-shaped JSON lines."""
