-- Text in the order a reader expects: letters without case, and each run of digits by its number, so that
-- "第 88 卷" comes before "第 988 卷" and "Vol. 9" before "Vol. 10". A digit run is written as its length (3 digits)
-- then its digits without leading zeros, which makes comparing the text compare the numbers.
CREATE OR REPLACE FUNCTION natural_sort_key(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(
    string_agg(
      CASE
        WHEN part[1] ~ '^[0-9]+$' THEN
          lpad(length(coalesce(nullif(ltrim(part[1], '0'), ''), '0'))::text, 3, '0')
            || coalesce(nullif(ltrim(part[1], '0'), ''), '0')
        ELSE lower(part[1])
      END,
      '' ORDER BY position
    ),
    ''
  )
  FROM regexp_matches(value, '([0-9]+|[^0-9]+)', 'g') WITH ORDINALITY AS parts(part, position)
$$;
