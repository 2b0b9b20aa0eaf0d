// nqueens::Journal: the public face of the open journal, each call handed to its Impl
// (files/journal_file.hpp, journal_writer.cpp).
#include "nqueens/files/journal.hpp"

#include "files/journal_file.hpp"

namespace nqueens {

Journal::Journal(const std::filesystem::path& path, const RunHeader& header, bool repair)
    : impl_(std::make_unique<Impl>(path, header, repair)) {}

Journal::~Journal() = default;

const std::vector<UnitCount>& Journal::recorded() const { return impl_->recorded(); }
const std::optional<JournalRepair>& Journal::repaired() const { return impl_->repaired(); }
std::size_t Journal::dropped_bytes() const { return impl_->dropped_bytes(); }
const std::filesystem::path& Journal::path() const { return impl_->path(); }
const std::string& Journal::unwritable() const { return impl_->unwritable(); }
std::size_t Journal::units() const { return impl_->units(); }
void Journal::append(const UnitCount& unit) { impl_->append(unit); }
void Journal::append(std::span<const UnitCount> units) { impl_->append(units); }
void Journal::sync() { impl_->sync(); }
void Journal::seal() { impl_->seal(); }

}  // namespace nqueens
