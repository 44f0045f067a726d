"""The peers: the implementations people use, one module (or package) each, whose
adapters declare their default profiles in the convention vocabulary."""
