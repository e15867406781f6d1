"""Version 1 of the contract: ``splendor_pb2`` (messages) and ``splendor_pb2_grpc`` (stubs).

Generated from proto/splendor/v1/splendor.proto by scripts/gen_proto.sh; never edited by hand.
"""
