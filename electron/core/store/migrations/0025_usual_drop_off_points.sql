-- The office where the shop usually brings its parcels, per delivery service (pickupType 2 tariffs
-- need one, pointInId): the order form offers it again for every new order of that service.
CREATE TABLE usual_drop_off_points (
  company_id    INTEGER NOT NULL REFERENCES companies(id),
  provider_key  TEXT    NOT NULL,
  point_id      INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  PRIMARY KEY (company_id, provider_key)
) WITHOUT ROWID;
