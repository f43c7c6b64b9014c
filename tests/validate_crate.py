"""Validate an RO-Crate against the Provenance Run Crate profile with roc-validator, offline: the RO-Crate 1.1
JSON-LD context is served from tests/data/ro-crate-1.1-context.jsonld (the copy the rocrate 0.13.0 wheel ships),
as CI has no network.

    python tests/validate_crate.py CRATE.zip CONTEXT.jsonld    # in an environment with roc-validator

Prints each issue of REQUIRED severity and "passed" or "failed" (exit status 0 or 1). Run by
tests/test_provenance.py in the environment named by $STRATBENCH_ROC_VALIDATOR (roc-validator pins rich < 14,
which import-linter's rich ≥ 14.2 excludes from the project's own environment)."""
import io
import sys
import tempfile
from pathlib import Path

import requests
import requests_cache
from urllib3.response import HTTPResponse


def main(crate: str, context_file: str) -> int:
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
                                                  offline=True, cache_path=cache, requirement_severity="REQUIRED"))
    for issue in result.get_issues():
        print(issue.severity.name, getattr(issue.check, "identifier", ""), str(issue.message).splitlines()[0][:300])
    print("passed" if result.passed() else "failed")
    return 0 if result.passed() else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
