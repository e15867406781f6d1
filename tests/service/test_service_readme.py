"""The README's list of RPCs is the service's: every method of splendor.v1.SplendorService,
and nothing else, in the proto's order."""
import re
from pathlib import Path

from splendor.v1 import splendor_pb2 as pb

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def _readme_rpcs() -> list[str]:
    # The sentence "RPCs: `GetCatalog`, ..., and `AnalyzeGame` (...)." in the Service section.
    m = re.search(r"RPCs: (.*?)\. Settings", README, flags=re.S)
    assert m, "README.md: the Service section's 'RPCs: ...' sentence is missing"
    # Names in backticks outside the parenthesised remarks.
    listed = re.sub(r"\([^()]*\)", "", m.group(1))
    return re.findall(r"`([A-Z]\w+)`", listed)


def test_the_readme_lists_every_rpc_of_the_service_in_order():
    methods = [m.name for m in pb.DESCRIPTOR.services_by_name["SplendorService"].methods]
    assert _readme_rpcs() == methods
