"""One benchmark per file: ``connectx bench NAME`` runs ``scripts.bench.NAME``'s main."""
