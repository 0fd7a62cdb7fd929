"""The archive as a lake: the store's tables as Parquet datasets in a folder or at an
fsspec URL (``s3://…``), built batch by batch on a Dask cluster.

- :mod:`.layout`: where each dataset lives and how a part is named (by its bytes);
- :mod:`.manifest`: the committed batches, one entry each, written after their parts;
- :mod:`.batch`: one batch of files through the store's own writer, into parts;
- :mod:`.ledger`: what the lake holds, as the writer asks a store (nothing stored twice);
- :mod:`.build`: the batches as Dask tasks (``saboteur archive build`` and ``simulate``);
- :mod:`.export`: a store's tables into the lake (``saboteur archive export``);
- :mod:`.verify`: every batch checked against its manifest entry (``saboteur archive verify``).
"""
