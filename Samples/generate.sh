#!/usr/bin/env bash
# Regenerates everything under Samples/ except the scroll traces and configs: the sample streams
# (HLS over MPEG-TS and fMP4, masters, AES-128, byte ranges, a discontinuity, DASH), their
# reference frame hashes, thumbnails, merch images, samples.json and the two feed catalogs.
#
# Needs FFmpeg 5.1's command-line tools with libx264, libfreetype (drawtext) and a DejaVu font.
# Usage: Samples/generate.sh [NAME...]   (from anywhere; writes next to this script)
# With names (s15 s16), only those samples' streams, references and thumbnails are made again;
# samples.json and the feed catalogs are rewritten from every sample's committed references. Two
# builds of FFmpeg do not encode byte for byte alike, so remaking one sample leaves the others'
# files (and the tests' references) as they are.
#
# The media is synthetic (lavfi sources with a label and a running clock burnt in) so it is small,
# free of rights and varied enough to exercise the decoder. References are made by the ffmpeg CLI:
# `ffmpeg -i PLAYLIST -map 0:v:0 -autoscale 0 -f framemd5`, hashes over each decoded frame at its
# own size (`-autoscale 0` keeps a mid-stream resolution change unscaled). For DASH, each
# representation's init section and segments are concatenated and hashed the same way.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
command -v ffmpeg >/dev/null || { echo "generate.sh: ffmpeg is not on PATH" >&2; exit 1; }

font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
[ -f "$font" ] || { echo "generate.sh: $font is missing (apt-get install fonts-dejavu-core)" >&2; exit 1; }

ff() { ffmpeg -nostdin -hide_banner -loglevel error -y "$@"; }

only=("$@")
# wanted NAME: whether this run makes NAME's media (every sample when no name is given).
wanted() { [ ${#only[@]} -eq 0 ] || [[ " ${only[*]} " == *" $1 "* ]]; }

if [ ${#only[@]} -eq 0 ]; then
    rm -rf streams references images samples.json video-feed.json video-feed-abr.json
else
    for name in "${only[@]}"; do rm -rf "streams/$name" references/"$name".framemd5 references/"$name"-*.framemd5 "images/thumbs/$name.jpg"; done
fi
mkdir -p streams references images/thumbs images/merch

# A key frame every 2 s so every segment is 2 s and starts with an IDR frame.
keyframes="expr:gte(t,n_forced*2)"
x264=(-c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p -force_key_frames "$keyframes"
      -sc_threshold 0 -x264-params "bframes=2:threads=1")

# label SAMPLE: drawtext burning the sample's name and its media clock into the picture.
label() {
    local size=$(( $2 / 14 ))
    echo "drawtext=fontfile=$font:text='$1 %{pts\\:hms}':x=(w-tw)/2:y=h*0.82:fontsize=$size:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=$((size / 3))"
}

# source NAME W H FPS SECONDS: a lavfi video source string per sample (varied content).
source_of() {
    local kind=$1 w=$2 h=$3 fps=$4 secs=$5
    case $kind in
        testsrc2)   echo "testsrc2=size=${w}x${h}:rate=$fps:duration=$secs" ;;
        testsrc)    echo "testsrc=size=${w}x${h}:rate=$fps:duration=$secs" ;;
        mandelbrot) echo "mandelbrot=size=${w}x${h}:rate=$fps:end_scale=0.02:end_pts=$((secs * fps))" ;;
        life)       echo "life=size=$((w / 4))x$((h / 4)):rate=$fps:mold=10:life_color=#ffcc33:death_color=#330066:seed=7,scale=${w}:${h}:flags=neighbor" ;;
        cellauto)   echo "cellauto=size=$((w / 3))x$((h / 3)):rate=$fps:rule=110:seed=3,scale=${w}:${h}:flags=neighbor" ;;
        gradients)  echo "gradients=size=${w}x${h}:rate=$fps:speed=0.03:seed=11:nb_colors=4" ;;
        sierpinski) echo "sierpinski=size=${w}x${h}:rate=$fps:seed=5:jump=30" ;;
        smpte)      echo "smptehdbars=size=${w}x${h}:rate=$fps,hue=H=2*PI*t/6" ;;
        *) echo "generate.sh: unknown source $kind" >&2; exit 1 ;;
    esac
}

# video_graph NAME KIND W H FPS SECONDS: a labelled lavfi source, for `-f lavfi -i`.
video_graph() {
    local name=$1 kind=$2 w=$3 h=$4 fps=$5 secs=$6
    echo "$(source_of "$kind" "$w" "$h" "$fps" "$secs"),$(label "$name" "$w"),format=yuv420p"
}

# tone FREQ: a two-tone sine, for `-f lavfi -i`.
tone() { echo "sine=frequency=$1:sample_rate=44100:beep_factor=2"; }
aac=(-c:a aac -b:a 48k -ac 1 -ar 44100)

# reference PLAYLIST OUT: the ffmpeg CLI's frame hashes of a playlist's first video stream.
reference() {
    ff -allowed_extensions ALL -i "$1" -map 0:v:0 -autoscale 0 -f framemd5 "$2"
}

frames_in() { grep -vc '^#' "$1"; }

index_entries=()
declare -A feed_entries=()

# record NAME ENTRY PACKAGING RATIO W H SECONDS AUDIO RENDITIONS_JSON
# RATIO is height:width as in the catalog: "16:9" is portrait (540x960), "9:16" landscape.
record() {
    index_entries+=("  {\"name\": \"$1\", \"entry\": \"$2\", \"packaging\": \"$3\", \"aspectRatio\": \"$4\", \"width\": $5, \"height\": $6, \"durationSeconds\": $7, \"hasAudio\": $8,
   \"renditions\": [$9]}")
    feed_entries[$1]="{\"video_source\": {\"sourceType\": \"$( [ "$3" = dash ] && echo DASH || echo HLS )\", \"type\": \"FeedsVideoSource\", \"resolution\": 0, \"url\": \"$2\"},
  \"thumbail\": {\"width\": 0, \"height\": 0, \"type\": \"ImageValue\", \"aspectRatio\": \"$4\", \"dynamicImageUrl\": \"images/thumbs/$1.jpg?w={@width}&h={@height}&q={@quality}\"}}"
}

# rendition_json ID PLAYLIST REPRESENTATION W H BANDWIDTH REFERENCE
rendition_json() {
    local rep=null
    [ "$3" = - ] || rep="\"$3\""
    echo "{\"id\": \"$1\", \"playlist\": \"$2\", \"representation\": $rep, \"width\": $4, \"height\": $5, \"bandwidth\": $6, \"reference\": \"references/$7\", \"frames\": $(frames_in "references/$7")}"
}

# thumbnail NAME MEDIA: the first frame, 270 wide, as the card's thumbnail.
thumbnail() {
    local opts=()
    [[ $2 == *.m3u8 ]] && opts=(-allowed_extensions ALL)
    ff "${opts[@]}" -i "$2" -frames:v 1 -vf "scale=270:-2" -q:v 5 "images/thumbs/$1.jpg"
}

# hls_single NAME KIND W H FPS SECONDS AUDIO(yes|no) SEGMENT(ts|fmp4|single) RATIO KBPS [extra hls flags...]
hls_single() {
    wanted "$1" || return 0
    local name=$1 kind=$2 w=$3 h=$4 fps=$5 secs=$6 audio=$7 seg=$8 ratio=$9 kbps=${10}
    shift 10
    local dir=streams/$name
    mkdir -p "$dir"
    local inputs maps=(-map 0:v) audio_args=()
    inputs=(-f lavfi -t "$secs" -i "$(video_graph "$name" "$kind" "$w" "$h" "$fps" "$secs")")
    if [ "$audio" = yes ]; then
        inputs+=(-f lavfi -t "$secs" -i "$(tone $((300 + 10#${name#s} * 40)))")
        maps+=(-map 1:a)
        audio_args=("${aac[@]}")
    fi
    local seg_args=(-hls_segment_filename "$dir/seg_%03d.ts")
    case $seg in
        fmp4) seg_args=(-hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$dir/seg_%03d.m4s") ;;
        single) seg_args=(-hls_flags single_file -hls_segment_filename "$dir/media.ts") ;;
    esac
    ff "${inputs[@]}" "${maps[@]}" "${x264[@]}" -b:v "${kbps}k" -maxrate "$((kbps * 5 / 4))k" -bufsize "$((kbps * 2))k" \
        "${audio_args[@]}" -f hls -hls_time 2 -hls_playlist_type vod "${seg_args[@]}" "$@" "$dir/index.m3u8"
    reference "$dir/index.m3u8" "references/$name.framemd5"
    thumbnail "$name" "$dir/index.m3u8"
}

add_single() {  # NAME PACKAGING RATIO W H SECONDS AUDIO(true|false) KBPS
    record "$1" "streams/$1/index.m3u8" "$2" "$3" "$4" "$5" "$6" "$7" \
        "$(rendition_json main "streams/$1/index.m3u8" - "$4" "$5" "$(( $8 * 1000 ))" "$1.framemd5")"
}

echo "s01: MPEG-TS, portrait, 14 s, audio"
hls_single s01 testsrc2 540 960 30 14 yes ts 16:9 420
add_single s01 hls-ts 16:9 540 960 14 true 420

echo "s02: fMP4, portrait, 10 s, audio"
hls_single s02 mandelbrot 540 960 30 10 yes fmp4 16:9 420
add_single s02 hls-fmp4 16:9 540 960 10 true 420

# hls_master NAME KIND FPS SECONDS SEGMENT "id:WxH:kbps ..." : a master over 2-3 renditions.
hls_master() {
    local name=$1 kind=$2 fps=$3 secs=$4 seg=$5 ladder=$6
    local dir=streams/$name
    if wanted "$name"; then
        mkdir -p "$dir"
        local n=0 split="" outs="" filter maps=() rates=() streammap="" top_w=0 top_h=0
        for step in $ladder; do
            IFS=: read -r id size kbps <<<"$step"
            split="$split[v$n]"
            outs="$outs;[v$n]scale=${size/x/:}:flags=bicubic[o$n]"
            maps+=(-map "[o$n]" -map 0:a)
            rates+=(-b:v:$n "${kbps}k" -maxrate:v:$n "$((kbps * 5 / 4))k" -bufsize:v:$n "$((kbps * 2))k")
            streammap="$streammap v:$n,a:$n,name:$id"
            n=$((n + 1))
        done
        IFS=: read -r _ top _ <<<"${ladder##* }"
        top_w=${top%x*}; top_h=${top#*x}
        filter="$(source_of "$kind" "$top_w" "$top_h" "$fps" "$secs"),$(label "$name" "$top_w"),format=yuv420p,split=$n$split$outs"
        local seg_args=(-hls_segment_filename "$dir/%v/seg_%03d.ts")
        if [ "$seg" = fmp4 ]; then
            seg_args=(-hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$dir/%v/seg_%03d.m4s")
        fi
        ff -f lavfi -t "$secs" -i "$(tone 520)" \
            -filter_complex "$filter" "${maps[@]}" "${x264[@]}" "${rates[@]}" "${aac[@]}" -t "$secs" \
            -f hls -hls_time 2 -hls_playlist_type vod "${seg_args[@]}" -master_pl_name master.m3u8 \
            -var_stream_map "${streammap# }" "$dir/%v/index.m3u8"
        for step in $ladder; do
            IFS=: read -r id _ _ <<<"$step"
            reference "$dir/$id/index.m3u8" "references/$name-$id.framemd5"
        done
        thumbnail "$name" "$dir/$id/index.m3u8"
    fi
    local json=""
    for step in $ladder; do
        IFS=: read -r id size kbps <<<"$step"
        json="$json${json:+, }$(rendition_json "$id" "streams/$name/$id/index.m3u8" - "${size%x*}" "${size#*x}" "$((kbps * 1000))" "$name-$id.framemd5")"
    done
    RENDITIONS=$json
}

echo "s03: master of three MPEG-TS renditions, portrait, 12 s, audio"
hls_master s03 gradients 30 12 ts "360p:360x640:200 540p:540x960:420 720p:720x1280:700"
record s03 streams/s03/master.m3u8 hls-master 16:9 720 1280 12 true "$RENDITIONS"

echo "s04: DASH, two video representations and audio, portrait, 8 s"
dash_sample() {
    local name=s04 dir=streams/s04 secs=8 fps=30
    if wanted s04; then
        mkdir -p "$dir"
        ff -f lavfi -t "$secs" -i "$(tone 660)" \
            -filter_complex "$(source_of life 540 960 $fps $secs),$(label $name 540),format=yuv420p,split=2[a][b];[a]scale=360:640[v0];[b]copy[v1]" \
            -map "[v0]" -map "[v1]" -map 0:a "${x264[@]}" -b:v:0 200k -maxrate:v:0 250k -bufsize:v:0 400k \
            -b:v:1 420k -maxrate:v:1 525k -bufsize:v:1 840k "${aac[@]}" -t "$secs" \
            -f dash -seg_duration 2 -use_template 1 -use_timeline 1 -adaptation_sets "id=0,streams=v id=1,streams=a" \
            "$dir/manifest.mpd"
        for rep in 0 1; do
            cat "$dir/init-stream$rep.m4s" "$dir"/chunk-stream$rep-*.m4s > "/tmp/reel-dash-$rep.mp4"
            ff -i "/tmp/reel-dash-$rep.mp4" -map 0:v:0 -autoscale 0 -f framemd5 "references/$name-$rep.framemd5"
            [ $rep = 0 ] || thumbnail "$name" "/tmp/reel-dash-$rep.mp4"
            rm -f "/tmp/reel-dash-$rep.mp4"
        done
    fi
    local json="" rep size kbps
    for rep in 0 1; do
        if [ $rep = 0 ]; then size=360x640; kbps=200; else size=540x960; kbps=420; fi
        json="$json${json:+, }$(rendition_json "$rep" "streams/$name/manifest.mpd" "$rep" "${size%x*}" "${size#*x}" "$((kbps * 1000))" "$name-$rep.framemd5")"
    done
    record s04 streams/s04/manifest.mpd dash 16:9 540 960 8 true "$json"
}
dash_sample

echo "s05: AES-128 MPEG-TS, portrait, 9 s"
if wanted s05; then
    mkdir -p streams/s05
    printf '\x52\x65\x65\x6c\x2d\x73\x61\x6d\x70\x6c\x65\x2d\x6b\x65\x79\x21' > streams/s05/key.bin
    printf 'key.bin\n%s\n000102030405060708090a0b0c0d0e0f\n' "$here/streams/s05/key.bin" > /tmp/reel-keyinfo
fi
hls_single s05 cellauto 540 960 25 9 no ts 16:9 380 -hls_key_info_file /tmp/reel-keyinfo
rm -f /tmp/reel-keyinfo
add_single s05 hls-aes 16:9 540 960 9 false 380

echo "s06: byte ranges into one MPEG-TS file, portrait, 8 s, audio"
hls_single s06 testsrc 540 960 30 8 yes single 16:9 400
add_single s06 hls-byterange 16:9 540 960 8 true 400

echo "s07: MPEG-TS, landscape, 10 s, audio"
hls_single s07 sierpinski 960 540 30 10 yes ts 9:16 450
add_single s07 hls-ts 9:16 960 540 10 true 450

echo "s08: fMP4, square, 8 s"
hls_single s08 smpte 720 720 30 8 no fmp4 1:1 400
add_single s08 hls-fmp4 1:1 720 720 8 false 400

echo "s09: master of two fMP4 renditions, portrait, 12 s, audio"
hls_master s09 testsrc2 30 12 fmp4 "360p:360x640:200 540p:540x960:420"
record s09 streams/s09/master.m3u8 hls-master 16:9 540 960 12 true "$RENDITIONS"

echo "s10: a discontinuity between two encodes, 540x960 then 720x1280, 12 s"
discontinuity_sample() {
    wanted s10 || return 0
    local dir=streams/s10
    mkdir -p "$dir/a" "$dir/b"
    ff -f lavfi -t 6 -i "$(video_graph s10a gradients 540 960 30 6)" "${x264[@]}" -b:v 420k -maxrate 525k -bufsize 840k \
        -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$dir/a/seg_%03d.ts" "$dir/a/index.m3u8"
    ff -f lavfi -t 6 -i "$(video_graph s10b mandelbrot 720 1280 30 6)" "${x264[@]}" -b:v 600k -maxrate 750k -bufsize 1200k \
        -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$dir/b/seg_%03d.ts" "$dir/b/index.m3u8"
    {
        echo "#EXTM3U"
        echo "#EXT-X-VERSION:3"
        echo "#EXT-X-TARGETDURATION:2"
        echo "#EXT-X-MEDIA-SEQUENCE:0"
        echo "#EXT-X-PLAYLIST-TYPE:VOD"
        grep -E '^(#EXTINF|seg_)' "$dir/a/index.m3u8" | sed 's#^seg_#a/seg_#'
        echo "#EXT-X-DISCONTINUITY"
        grep -E '^(#EXTINF|seg_)' "$dir/b/index.m3u8" | sed 's#^seg_#b/seg_#'
        echo "#EXT-X-ENDLIST"
    } > "$dir/index.m3u8"
    rm "$dir/a/index.m3u8" "$dir/b/index.m3u8"
    reference "$dir/index.m3u8" references/s10.framemd5
    thumbnail s10 "$dir/index.m3u8"
}
discontinuity_sample
add_single s10 hls-discontinuity 16:9 540 960 12 false 420

echo "s11: MPEG-TS, portrait, 6 s at 24 fps"
hls_single s11 life 540 960 24 6 no ts 16:9 380
add_single s11 hls-ts 16:9 540 960 6 false 380

echo "s12: fMP4, portrait, 15 s, audio"
hls_single s12 gradients 540 960 30 15 yes fmp4 16:9 380
add_single s12 hls-fmp4 16:9 540 960 15 true 380

echo "s13: MPEG-TS, landscape, 7 s at 25 fps"
hls_single s13 cellauto 960 540 25 7 no ts 16:9 400
add_single s13 hls-ts 9:16 960 540 7 false 400

echo "s14: MPEG-TS, square, 9 s, audio"
hls_single s14 sierpinski 540 540 30 9 yes ts 1:1 350
add_single s14 hls-ts 1:1 540 540 9 true 350

# Adaptive bitrate ladders: three MPEG-TS renditions at rising bitrates with aligned 2 s
# segments (one encode, key frames forced together), from busy sources so the encoder spends the
# bitrate asked for. The top rendition needs more than a 3g link carries alongside the rest of a feed.
echo "s15: master of three MPEG-TS renditions for adaptive bitrate, portrait, 8 s, audio"
hls_master s15 mandelbrot 30 8 ts "360p:360x640:250 540p:540x960:550 720p:720x1280:1100"
record s15 streams/s15/master.m3u8 hls-master 16:9 720 1280 8 true "$RENDITIONS"

echo "s16: master of three MPEG-TS renditions for adaptive bitrate, portrait, 8 s, audio"
hls_master s16 cellauto 30 8 ts "360p:360x640:250 540p:540x960:550 720p:720x1280:1100"
record s16 streams/s16/master.m3u8 hls-master 16:9 720 1280 8 true "$RENDITIONS"

# Three more ladders of the same shape (busy sources, 6-10 s as shorts are), so that a feed of
# ladders only (video-feed-abr.json, as a production CDN serves every video) rarely repeats a video.
echo "s17: master of three MPEG-TS renditions for adaptive bitrate, portrait, 10 s, audio"
hls_master s17 testsrc2 30 10 ts "360p:360x640:250 540p:540x960:550 720p:720x1280:1100"
record s17 streams/s17/master.m3u8 hls-master 16:9 720 1280 10 true "$RENDITIONS"

echo "s18: master of three MPEG-TS renditions for adaptive bitrate, portrait, 6 s, audio"
hls_master s18 life 30 6 ts "360p:360x640:250 540p:540x960:550 720p:720x1280:1100"
record s18 streams/s18/master.m3u8 hls-master 16:9 720 1280 6 true "$RENDITIONS"

echo "s19: master of three MPEG-TS renditions for adaptive bitrate, portrait, 8 s, audio"
hls_master s19 sierpinski 30 8 ts "360p:360x640:250 540p:540x960:550 720p:720x1280:1100"
record s19 streams/s19/master.m3u8 hls-master 16:9 720 1280 8 true "$RENDITIONS"

if [ ${#only[@]} -eq 0 ]; then
    echo "merch images"
    merch_sources=("gradients=size=600x750:seed=21:nb_colors=3" "mandelbrot=size=600x600:start_scale=1.5"
                    "smptehdbars=size=600x800" "gradients=size=600x600:seed=42:nb_colors=5"
                    "sierpinski=size=600x750:seed=9" "testsrc2=size=600x800")
    for i in 1 2 3 4 5 6; do
        ff -f lavfi -i "${merch_sources[$((i - 1))]}" -frames:v 1 \
            -vf "drawtext=fontfile=$font:text='Merch $i':x=(w-tw)/2:y=h*0.8:fontsize=56:fontcolor=white:box=1:boxcolor=black@0.5:boxborderw=12" \
            -q:v 6 "images/merch/m$i.jpg"
    done
fi

# The feed's order: the adaptive masters early (s15 the second short, s16 in the first carousel),
# so the bundled scroll traces play them.
feed_order=(s01 s15 s02 s03 s04 s16 s05 s06 s07 s08 s09 s10 s11 s12 s13 s14)
# The ladders' feed: every video a master (MPEG-TS ladders that switch, the fMP4 master and the
# DASH MPD that only choose their start), for measuring adaptive bitrate where every play adapts.
abr_order=(s15 s17 s03 s18 s16 s19 s09 s04)

# write_feed FILE NAME...: a catalog of the named samples, in order.
write_feed() {
    local file=$1
    shift
    local names=("$@")
    {
        echo "["
        for i in "${!names[@]}"; do
            printf ' %s' "${feed_entries[${names[$i]}]}"
            [ "$i" -lt $(( ${#names[@]} - 1 )) ] && echo "," || echo
        done
        echo "]"
    } > "$file"
}

echo "samples.json, video-feed.json and video-feed-abr.json"
{
    echo "["
    for i in "${!index_entries[@]}"; do
        printf '%s' "${index_entries[$i]}"
        [ "$i" -lt $(( ${#index_entries[@]} - 1 )) ] && echo "," || echo
    done
    echo "]"
} > samples.json
write_feed video-feed.json "${feed_order[@]}"
write_feed video-feed-abr.json "${abr_order[@]}"

du -sh "$here" | sed 's/^/Samples: /'
