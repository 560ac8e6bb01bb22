# Glosario IA bot. Build: docker build -t glosario-bot .   Run: see compose.yaml and the README.

# --- build stage: dependencies and the package into a virtual environment ------------------------------
FROM python:3.11-slim AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1
WORKDIR /src
RUN python -m venv /opt/venv
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY glossary_data ./glossary_data
RUN /opt/venv/bin/pip install --no-cache-dir .

# --- runtime stage: no compilers, no pip cache, a non-root user ------------------------------------------
FROM python:3.11-slim
LABEL org.opencontainers.image.title="Glosario IA bot" \
      org.opencontainers.image.description="Discord bot for the Glosario IA: /termino, gaps logged for editors"
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    GLOSARIO_DATA=/app/glossary_data \
    GLOSARIO_DB=/data/glosario.db \
    MPLCONFIGDIR=/data/.matplotlib
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
