#include "link/gilbert_elliott.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "config/setting_text.h"

namespace dissem::link {

double GilbertParams::stationary_bad() const {
  const double sum = p_good_to_bad + p_bad_to_good;
  return sum > 0 ? p_good_to_bad / sum : 0.0;
}

double GilbertParams::mean_loss(double base_loss) const {
  return base_loss + stationary_bad() * loss_in_bad * (1 - base_loss);
}

void GilbertParams::check() const {
  const std::pair<const char*, double> fields[] = {
      {"p_good_to_bad", p_good_to_bad}, {"p_bad_to_good", p_bad_to_good}, {"loss_in_bad", loss_in_bad}};
  for (const auto& [name, v] : fields)
    if (!(v >= 0 && v <= 1))
      throw std::invalid_argument(std::string("Gilbert-Elliott ") + name + " must be a probability in [0, 1]");
}

GilbertParams parse_gilbert(std::string_view text) {
  static constexpr const char* kFields[] = {"p_good_to_bad", "p_bad_to_good", "loss_in_bad"};
  std::vector<std::string_view> parts;
  for (std::size_t pos = 0;;) {
    const std::size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) {
      parts.push_back(text.substr(pos));
      break;
    }
    parts.push_back(text.substr(pos, comma - pos));
    pos = comma + 1;
  }
  if (parts.size() != 3)
    throw std::invalid_argument("expected three comma-separated probabilities PGB,PBG,LOSSBAD");

  double values[3] = {};
  for (std::size_t i = 0; i < 3; ++i) {
    const std::string_view part = parts[i];
    const auto v = read_finite_number(part);
    std::string message = kFields[i];
    message.append(" '").append(part).append("' ");
    if (!v) throw std::invalid_argument(message.append("is not a number"));
    if (*v < 0 || *v > 1) throw std::invalid_argument(message.append("is not a probability in [0, 1]"));
    values[i] = *v;
  }
  return {values[0], values[1], values[2]};
}

double GilbertElliott::step(Random& rng, const GilbertParams& params, double base_pass) {
  const double u = rng.uniform();
  bad_ = bad_ ? !(u < params.p_bad_to_good) : u < params.p_good_to_bad;
  return bad_ ? base_pass * (1 - params.loss_in_bad) : base_pass;
}

}  // namespace dissem::link
