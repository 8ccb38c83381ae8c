-- Which supplier sources of an item serve (docs/design.md §11b): catalog owns items and their item_sources;
-- the suppliers module writes them and the price lists (supplier_products) these read.
-- The floor margin of an item no pricing rule covers (MIN_MARGIN, written at start).
CREATE OR REPLACE FUNCTION default_min_margin() RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT min_margin FROM margin_settings), 0)
$$;

-- What one unit of an item's price costs at a source of this kind, from its supplier's listed price
-- (docs/design.md §11b): Digiflazz lists a price per unit, a panel a rate per 1,000 units. The one spelling
-- of that rate: item_source_states() and the suppliers' pricing (import, reprice) read it. Exact (a product
-- by 0.001, never a rounded division), without trailing zeros: '0.90' a 1,000 is '0.0009' a unit.
CREATE OR REPLACE FUNCTION source_unit_price(p_list_price numeric, p_kind text) RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT trim_scale(CASE WHEN p_kind = 'smm_panel' THEN p_list_price * 0.001 ELSE p_list_price END)
$$;

-- The kind of provider each order process buys from (docs/design.md §1, §11b): h2h from Digiflazz, smm from
-- an SMM panel; NULL for a process no provider serves (auto, manual): a process goes upstream exactly
-- when it has one (`provider_kind_of(p) IS NOT NULL`). The one spelling of that mapping:
-- the purchase's provider check (checkout/purchase-line.sql), the sources an item may have and the
-- process of an imported item (suppliers), and the items that offer account validation (offers_validation()).
CREATE OR REPLACE FUNCTION provider_kind_of(p_process text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_process WHEN 'h2h' THEN 'digiflazz' WHEN 'smm' THEN 'smm_panel' END
$$;

-- The items that offer account validation (POST /v1/item/validate, docs/design.md §5b): an h2h item whose
-- provider (p_provider_kind: its kind, NULL without one) is of the kind h2h buys from, its provider_meta
-- marking it `validation` (JSON true). The one spelling: the catalog's variants and the validation check
-- read it as a column (offersValidation(), catalog.queries.ts), the validation services' list filters by it.
-- Never NULL for an item's columns (order_process and provider_meta are NOT NULL), so a row reads true or false.
CREATE OR REPLACE FUNCTION offers_validation(p_process text, p_provider_kind text, p_meta jsonb)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p_process = 'h2h' AND p_provider_kind IS NOT DISTINCT FROM provider_kind_of(p_process)
         AND p_meta @> '{"validation": true}'
$$;

-- The order process that buys from a provider of this kind: provider_kind_of() read backwards.
CREATE OR REPLACE FUNCTION process_of_provider_kind(p_kind text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT p FROM unnest(ARRAY['auto', 'h2h', 'smm', 'manual']) p WHERE provider_kind_of(p) = p_kind
$$;

-- The margin per unit of price the floor keeps for an item: its rule's (items.min_margin), else the store's.
CREATE OR REPLACE FUNCTION floor_margin(p_item_min_margin bigint) RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT coalesce(p_item_min_margin, default_min_margin())
$$;

-- Every source of an item and what it can do at p_at: the one definition of "a source serves"
-- (docs/design.md §11b, §11c), read by the purchase, routing, failover, the catalog and Margin watch.
--   listed:       its provider on, and its supplier product on and still listed (a source linked by
--                 hand before any sync has no product row yet: listed, as the operator said);
--   in_cut_off:   inside the product's daily cut-off window, in the supplier's local time (Digiflazz:
--                 WIB); a window may wrap midnight (23:45–00:30);
--   within_floor: the item's price (p_price: a level's, docs/design.md §5d; else the item's own) reaches
--                 floor_price: the source's price + the floor margin, or 0 when the item allows a loss
--                 or the price is unknown (no list showed it).
-- price: what one unit of the item's price costs there (source_unit_price()); floor_margin: the margin
-- per unit of price the floor keeps (the item's rule's, else the store's).
CREATE OR REPLACE FUNCTION item_source_states(p_item bigint, p_at timestamptz, p_price bigint DEFAULT NULL)
RETURNS TABLE (provider text, code text, priority integer, kind text, price numeric, floor_margin bigint,
               listed boolean, in_cut_off boolean, within_floor boolean, floor_price numeric)
LANGUAGE sql STABLE AS $$
  SELECT s.provider, s.code, s.priority, pr.kind, c.price, m.margin,
         pr.active AND (sp.provider IS NULL OR (sp.active AND sp.gone_at IS NULL)),
         coalesce(CASE WHEN w.from_wib <= w.to_wib THEN w.now_wib >= w.from_wib AND w.now_wib < w.to_wib
                       ELSE w.now_wib >= w.from_wib OR w.now_wib < w.to_wib END, false),
         coalesce(p_price, it.price) >= f.floor_price, f.floor_price
    FROM item_sources s
    JOIN items it ON it.id = s.item_id
    JOIN providers pr ON pr.code = s.provider
    LEFT JOIN supplier_products sp ON sp.provider = s.provider AND sp.code = s.code
    CROSS JOIN LATERAL (SELECT source_unit_price(sp.price, pr.kind) AS price) c
    CROSS JOIN LATERAL (SELECT floor_margin(it.min_margin) AS margin) m
    CROSS JOIN LATERAL (SELECT CASE WHEN it.allow_loss OR c.price IS NULL THEN 0 ELSE c.price + m.margin END AS floor_price) f
    CROSS JOIN LATERAL (SELECT (p_at AT TIME ZONE 'Asia/Jakarta')::time AS now_wib,
                               sp.cut_off_start::time AS from_wib, sp.cut_off_end::time AS to_wib) w
   WHERE s.item_id = p_item
$$;

-- The sources of an item that can serve at p_at, first by priority: listed, outside their cut-off
-- window and within the floor (at p_price, a level's price; else the item's own).
CREATE OR REPLACE FUNCTION serving_sources(p_item bigint, p_at timestamptz, p_price bigint DEFAULT NULL)
RETURNS TABLE (provider text, code text, priority integer, price numeric)
LANGUAGE sql STABLE AS $$
  SELECT st.provider, st.code, st.priority, st.price
    FROM item_source_states(p_item, p_at, p_price) st
   WHERE st.listed AND NOT st.in_cut_off AND st.within_floor
   ORDER BY st.priority
$$;

-- Whether a provider can pay for a request costing p_cost (docs/design.md §11e): its known balance, the
-- last read, in IDR covers it. An unread balance, one in another currency, or an unknown cost passes:
-- routing holds back only what would certainly fail ("Saldo tidak cukup"). Read by the purchase's
-- routing, failover and the upstream claim.
CREATE OR REPLACE FUNCTION source_funded(p_provider text, p_cost numeric) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT p_cost IS NULL OR NOT EXISTS (
    SELECT 1 FROM provider_balances b WHERE b.provider = p_provider AND b.currency = 'IDR' AND b.balance < p_cost)
$$;
