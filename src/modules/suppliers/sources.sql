-- The sources of an item that can serve at p_at, first by priority (DESIGN §11b): the provider on,
-- and its supplier product on, still listed, and outside its daily cut-off window. Cut-off hours
-- are the supplier's local time (Digiflazz: WIB); a window may wrap midnight (23:45–00:30). A source
-- linked by hand before any sync has no product row yet: it serves, as the operator said.
-- price: what one unit of the item's price costs there (Digiflazz's price, an SMM rate per 1,000
-- over 1,000); NULL when no list showed it.
CREATE OR REPLACE FUNCTION serving_sources(p_item bigint, p_at timestamptz)
RETURNS TABLE (provider text, code text, priority integer, price numeric)
LANGUAGE sql STABLE AS $$
  SELECT s.provider, s.code, s.priority, CASE WHEN pr.kind = 'smm_panel' THEN sp.price / 1000 ELSE sp.price END
    FROM item_sources s
    JOIN providers pr ON pr.code = s.provider
    LEFT JOIN supplier_products sp ON sp.provider = s.provider AND sp.code = s.code
    CROSS JOIN LATERAL (SELECT (p_at AT TIME ZONE 'Asia/Jakarta')::time AS now_wib,
                               sp.cut_off_start::time AS from_wib, sp.cut_off_end::time AS to_wib) w
   WHERE s.item_id = p_item AND pr.active
     AND (sp.provider IS NULL
          OR (sp.active AND sp.gone_at IS NULL
              AND NOT coalesce(CASE WHEN w.from_wib <= w.to_wib THEN w.now_wib >= w.from_wib AND w.now_wib < w.to_wib
                                    ELSE w.now_wib >= w.from_wib OR w.now_wib < w.to_wib END, false)))
   ORDER BY s.priority
$$;
