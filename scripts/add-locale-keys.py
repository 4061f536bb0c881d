#!/usr/bin/env python3
"""Merge keys into apps/web/public/locales/{pt,en,cn}.json: add-locale-keys.py keys.json
keys.json: {"pt": {...nested...}, "en": {...}, "cn": {...}}. Existing keys are overwritten."""
import json, sys, pathlib
root = pathlib.Path(__file__).resolve().parent.parent / 'apps/web/public/locales'
new = json.load(open(sys.argv[1], encoding='utf-8'))
def merge(a, b):
    for k, v in b.items():
        if isinstance(v, dict) and isinstance(a.get(k), dict):
            merge(a[k], v)
        else:
            a[k] = v
for lng in ('pt', 'en', 'cn'):
    p = root / f'{lng}.json'
    data = json.load(open(p, encoding='utf-8'))
    merge(data, new[lng])
    p.write_text(json.dumps(data, ensure_ascii=False, indent=2) + '\n', encoding='utf-8')
