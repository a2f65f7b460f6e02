"""Balance reports: polars summaries, statistics, charts, Markdown/HTML rendering."""
