-- Reference data of the delivery services: pickup points, tariffs, additional services. The shipped
-- sandbox data (resources/sandbox) is loaded at start when its version changed; `source` says which
-- dataset a row came from, so a reload replaces exactly its own rows.
CREATE TABLE reference_data (
  dataset    TEXT    PRIMARY KEY,
  version    TEXT    NOT NULL,
  row_count  INTEGER NOT NULL,
  loaded_at  INTEGER NOT NULL
);

-- One row per point. Keys are compared without regard to ASCII case (COLLATE NOCASE); city_fold and
-- community_fold are lower-cased with ё → е, so `city=москва` finds Москва through an index;
-- search_text is the folded name, address, code, index and phone for the picker's search box.
-- Weights in grams, sizes in centimetres, max_cod in kopecks; worktime is the JSON of the wire record.
CREATE TABLE points (
  id                   INTEGER PRIMARY KEY,
  source               TEXT    NOT NULL,
  provider_key         TEXT    NOT NULL COLLATE NOCASE,
  code                 TEXT    NOT NULL COLLATE NOCASE,
  name                 TEXT    NOT NULL,
  post_index           TEXT,
  lat                  REAL,
  lng                  REAL,
  country_code         TEXT    NOT NULL COLLATE NOCASE,
  region               TEXT,
  city                 TEXT    NOT NULL,
  community            TEXT,
  street               TEXT,
  house                TEXT,
  block                TEXT,
  office               TEXT,
  address              TEXT    NOT NULL,
  phone                TEXT,
  timetable            TEXT,
  worktime             TEXT    NOT NULL DEFAULT '{}',
  fitting_room         INTEGER CHECK (fitting_room IN (0, 1)),
  cod                  INTEGER CHECK (cod IN (0, 1)),
  payment_cash         INTEGER CHECK (payment_cash IN (0, 1)),
  payment_card         INTEGER CHECK (payment_card IN (0, 1)),
  available_operation  INTEGER NOT NULL CHECK (available_operation IN (1, 2, 3)),
  type                 INTEGER NOT NULL CHECK (type IN (1, 2, 3, 4)),
  max_size_a           REAL,
  max_size_b           REAL,
  max_size_c           REAL,
  max_size_sum         REAL,
  min_weight           INTEGER,
  max_weight           INTEGER,
  max_cod              INTEGER,
  enabled              INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  city_fold            TEXT    NOT NULL,
  community_fold       TEXT,
  search_text          TEXT    NOT NULL
);
-- `city=X;providerKey=Y` (the picker's and the integrators' common question) is answered from these
-- two indexes (city OR community), each also serving a city-only filter; the counts read only the index.
CREATE INDEX points_city ON points(city_fold, provider_key);
CREATE INDEX points_community ON points(community_fold, provider_key);
CREATE INDEX points_provider ON points(provider_key, id);

CREATE TABLE tariffs (
  id             INTEGER PRIMARY KEY,
  source         TEXT    NOT NULL,
  provider_key   TEXT    NOT NULL COLLATE NOCASE,
  name           TEXT    NOT NULL,
  description    TEXT,
  alias_name     TEXT    COLLATE NOCASE,
  weight_min     INTEGER,
  weight_max     INTEGER,
  pickup_type    INTEGER CHECK (pickup_type IN (1, 2)),
  delivery_type  INTEGER CHECK (delivery_type IN (1, 2)),
  payment_cash   INTEGER NOT NULL CHECK (payment_cash IN (0, 1))
);
CREATE INDEX tariffs_provider ON tariffs(provider_key, id);

-- Additional services a delivery service offers, ordered with extraParams.{extra_param_name}.
CREATE TABLE provider_services (
  provider_key      TEXT    NOT NULL COLLATE NOCASE,
  extra_param_name  TEXT    NOT NULL COLLATE NOCASE,
  source            TEXT    NOT NULL,
  position          INTEGER NOT NULL,
  name              TEXT    NOT NULL,
  value_type        TEXT    NOT NULL CHECK (value_type IN ('bool', 'string', 'int', 'float')),
  description       TEXT    NOT NULL,
  PRIMARY KEY (provider_key, extra_param_name)
);
