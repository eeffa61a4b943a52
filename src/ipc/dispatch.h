// Turns one client request into its response by calling the Backend. Backend
// exceptions become Error responses here, so a rejected request never costs
// the client its connection.
#pragma once

#include "ipc.pb.h"
#include "ipc/backend.h"

namespace dissem::ipc {

// The Response for `request`, request_id copied. A request with no kind this
// build knows gets Error UNKNOWN_REQUEST (Session refuses those before
// dispatch and closes the connection; this covers any other caller).
Response dispatch_request(Backend& backend, ClientId client, const ClientMessage& request);

// A Response carrying only an Error.
Response error_response(std::uint64_t request_id, Error::Code code, const std::string& message);

}  // namespace dissem::ipc
