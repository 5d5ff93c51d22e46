// The loader of the MPICH transport refuses what it cannot use, with a message that says why
// and what to do, rather than calling into a library of another layout.
#include <gtest/gtest.h>

#include <string>

#include "transport.hpp"

namespace {

using mpisim::protocols::kTransportInterface;
using mpisim::protocols::open_transport_library;

TEST(TransportLoader, RefusesALibraryOfAnotherInterfaceVersion) {
  const std::string expected = "implements version 1 of the transport between host processes, "
                               "and this program was linked with an mpisim that expects "
                               "version " +
                               std::to_string(kTransportInterface) +
                               ".*rebuild the program with this mpisim's compiler wrapper";
  EXPECT_EXIT(open_transport_library(MPISIM_OLD_TRANSPORT_STUB, nullptr, nullptr),
              testing::ExitedWithCode(1), expected);
}

TEST(TransportLoader, RefusesAMissingLibrary) {
  EXPECT_EXIT(
      open_transport_library("/nonexistent/libmpisim_transport_mpich.so", nullptr, nullptr),
      testing::ExitedWithCode(1),
      "cannot load the transport between host processes "
      "\\(/nonexistent/libmpisim_transport_mpich.so\\).*rebuild mpisim, or run on one host");
}

} // namespace
