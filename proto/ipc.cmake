# Local IPC schema (application <-> dissemd), see ipc.proto for the framing.
# Meant to be include()d; the .proto path is taken relative to this file and
# the generated ipc.pb.h lands in the including directory's binary dir.
# Generated code is compiled without our warning flags.
protobuf_generate_cpp(IPC_PROTO_SRCS IPC_PROTO_HDRS ${CMAKE_CURRENT_LIST_DIR}/ipc.proto)
add_library(dissem_ipc_proto STATIC ${IPC_PROTO_SRCS})
target_include_directories(dissem_ipc_proto PUBLIC ${CMAKE_CURRENT_BINARY_DIR})
target_link_libraries(dissem_ipc_proto PUBLIC protobuf::libprotobuf)
