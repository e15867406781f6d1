"""The generated code of the splendor-ai wire contract (proto/splendor/...); see splendor.v1."""
