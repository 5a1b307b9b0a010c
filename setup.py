"""Package layout: the repository's folders keep their short names, the installed packages carry the project's.

`env_zoo/`, `synth/` and `training/` install as `envfactory_zoo`, `envfactory_synth` and `envfactory_training`
(setuptools `package_dir`), so they never collide with a user's own top-level `training` or `synth` package.
Everything else about the project is in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

RENAMED = {"envfactory_zoo": "env_zoo", "envfactory_synth": "synth", "envfactory_training": "training"}

packages = find_namespace_packages(
    include=["envfactory_gym", "envfactory_gym.*", "envfactory_verifiers", "envfactory_verifiers.*"],
    exclude=["*__pycache__*"],
)
for name, folder in RENAMED.items():
    # namespace packages too: data folders (env_zoo/<key>/snapshots, prompts, scripts) ship as data-only packages
    packages += [name] + [f"{name}.{sub}" for sub in find_namespace_packages(folder, exclude=["*__pycache__*"])]

setup(packages=packages, package_dir=RENAMED)
