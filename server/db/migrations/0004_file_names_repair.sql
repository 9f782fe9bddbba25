-- Until this version, multipart file names were read as latin1 while browsers send them as raw
-- UTF-8: `facture_été.pdf` was stored as `facture_Ã©tÃ©.pdf`. This repairs the names of uploads
-- (documents.original_name, and logs.name of the rows that follow an upload) when the repair is
-- unambiguous: the name holds only characters U+0001–U+00FF, at least one of them above U+007F,
-- and its latin1 bytes (one per character) are valid UTF-8. Any other name stays as it is (a name
-- a latin1 client sent correctly, `café.pdf`, is bytes 63 61 66 E9: not UTF-8). The one ambiguity
-- accepted: a name really typed as a letter Â–ô followed by symbols U+0080–U+00BF (`Ã©tude.pdf`,
-- `Â©.pdf`) reads as garbled and is "repaired"; real names almost never look like that.
-- Then bidirectional controls and C0/C1 controls are removed, as uploads now do.
--
-- The latin1 bytes are built from the code points by hand: convert_to(name, 'LATIN1') needs a
-- conversion PGlite does not ship (it fails there). convert_from(bytes, 'UTF8') raises on bytes
-- that are not UTF-8: the exception handler keeps the name, so no row can abort the migration.
CREATE FUNCTION "docflow_repaired_file_name"("garbled" text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
  bytes bytea;
BEGIN
  IF "garbled" !~ '^[\u0001-\u00ff]*$' OR "garbled" !~ '[\u0080-\u00ff]' THEN
    RETURN "garbled";
  END IF;
  SELECT decode(string_agg(lpad(to_hex(ascii(t.c)), 2, '0'), '' ORDER BY t.i), 'hex') INTO bytes
    FROM unnest(regexp_split_to_array("garbled", '')) WITH ORDINALITY AS t(c, i);
  RETURN normalize(convert_from(bytes, 'UTF8'), NFC);
EXCEPTION WHEN data_exception THEN
  RETURN "garbled";
END
$$;--> statement-breakpoint
UPDATE "documents" SET "original_name" = r."repaired"
  FROM (SELECT "id", "docflow_repaired_file_name"("original_name") AS "repaired" FROM "documents"
        WHERE "original_name" ~ '[\u0080-\u00ff]') AS r
  WHERE "documents"."id" = r."id" AND "documents"."original_name" <> r."repaired";--> statement-breakpoint
UPDATE "logs" SET "name" = r."repaired"
  FROM (SELECT "id", "docflow_repaired_file_name"("name") AS "repaired" FROM "logs"
        WHERE "document_id" IS NOT NULL AND "name" ~ '[\u0080-\u00ff]') AS r
  WHERE "logs"."id" = r."id" AND "logs"."name" <> r."repaired";--> statement-breakpoint
DROP FUNCTION "docflow_repaired_file_name"(text);--> statement-breakpoint
-- C0/C1 controls, DEL, U+200E/F, U+061C, U+202A–U+202E, U+2066–U+2069, U+2028/9, U+FEFF.
UPDATE "documents" SET "original_name" = coalesce(nullif(btrim(regexp_replace("original_name",
    '[\u0001-\u001f\u007f-\u009f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]', '', 'g')), ''), 'file')
  WHERE "original_name" ~ '[\u0001-\u001f\u007f-\u009f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]';--> statement-breakpoint
UPDATE "logs" SET "name" = coalesce(nullif(btrim(regexp_replace("name",
    '[\u0001-\u001f\u007f-\u009f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]', '', 'g')), ''), 'file')
  WHERE "document_id" IS NOT NULL
    AND "name" ~ '[\u0001-\u001f\u007f-\u009f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]';
