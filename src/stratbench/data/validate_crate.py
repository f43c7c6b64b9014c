"""Validate an RO-Crate against the Provenance Run Crate profile with roc-validator, offline: the RO-Crate 1.1
JSON-LD context is served from the copy stratbench ships (``ro-crate-1.1-context.jsonld``, the rocrate 0.13.0
wheel's), so no network is needed.

    python validate_crate.py CRATE.zip CONTEXT.jsonld [SEVERITY]    # in an environment with roc-validator

Prints each issue at SEVERITY (REQUIRED, RECOMMENDED or OPTIONAL; default RECOMMENDED) or above, one a line
(severity, check, the entity or the value at fault, message; tab-separated), then "passed" or "failed" (exit
status 0 or 1). Run by ``stratbench bundle --validate``
(:func:`stratbench.records.bundle.validate`) in the python it names: roc-validator pins rich < 14, which
import-linter's rich >= 14.2 excludes from the project's own environment. Imports nothing of stratbench."""
import io
import sys
import tempfile
from pathlib import Path

import requests
import requests_cache
from urllib3.response import HTTPResponse


def main(crate: str, context_file: str, severity: str = "RECOMMENDED") -> int:
    context = Path(context_file).read_bytes()
    cache = str(Path(tempfile.mkdtemp()) / "http")

    class Local(requests.adapters.HTTPAdapter):
        def send(self, request, **kwargs):
            raw = HTTPResponse(body=io.BytesIO(context), headers={"Content-Type": "application/ld+json"}, status=200,
                               preload_content=False, request_url=request.url)
            return self.build_response(request, raw)

    session = requests_cache.CachedSession(cache_name=cache, backend="sqlite", allowable_methods=("GET",),
                                           allowable_codes=(200, 302, 404), expire_after=-1)
    session.mount("https://w3id.org/", Local())
    session.get("https://w3id.org/ro/crate/1.1/context")
    from rocrate_validator import services
    from rocrate_validator.models import ValidationSettings

    result = services.validate(ValidationSettings(rocrate_uri=crate, profile_identifier="provenance-run-crate-0.5",
                                                  offline=True, cache_path=cache, requirement_severity=severity))
    for issue in result.get_issues():
        about = getattr(issue, "violatingPropertyValue", None) or getattr(issue, "violatingEntity", None)
        print(issue.severity.name, getattr(issue.check, "identifier", ""), about,
              str(issue.message).splitlines()[0][:300], sep="\t")
    print("passed" if result.passed() else "failed")
    return 0 if result.passed() else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
